import { RPC_NETWORKS } from '@ebs/contract';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpstreamEntry } from '../../config-rpc.ts';
import { until } from '../../testing/poll.ts';
import { HttpReply, type NodeCall, type Script, startScriptedNode } from '../../testing/scripted-node.ts';
import { UpstreamError, wholeBody } from './node-answer.ts';
import { HEAD_READ, type NodeNeed } from './node-need.ts';
import { NetworkUpstreams, type UpstreamOptions } from './upstreams.ts';

const network = RPC_NETWORKS[1]; // ethereum/sepolia
const CHAIN_ID = `0x${network.chainId.toString(16)}`;
const hex = (n: number) => `0x${n.toString(16)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Node = Awaited<ReturnType<typeof startScriptedNode>> & { head: number };

const started: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

/**
 * A scripted node at a head the test moves; `script` answers the calls that are not the router's head
 * reads (it may wait, fail or answer HTTP 429), by default an ordinary balance.
 */
async function node(head: number, script: Script = () => '0x1'): Promise<Node> {
  const state = { head };
  const scripted = await startScriptedNode((call) => {
    if (call.method === 'eth_chainId') return CHAIN_ID;
    if (call.method === 'eth_blockNumber') return hex(state.head);
    return script(call);
  });
  started.push(scripted);
  // The head the node answers follows `head`.
  return {
    ...scripted,
    get head() {
      return state.head;
    },
    set head(value: number) {
      state.head = value;
    },
  };
}

function fleet(nodes: Array<Node | UpstreamEntry>, options: Partial<UpstreamOptions> = {}): NetworkUpstreams {
  const entries = nodes.map((n) => ('calls' in n ? { url: n.url, archive: false, weight: 1, maxInFlight: 0 } : n));
  const upstreams = new NetworkUpstreams(network, async () => entries, {
    timeoutMs: 5000,
    firstCoolDownMs: 1000,
    headPollMs: 100,
    maxLagBlocks: 3,
    hedgeMs: 0,
    broadcastSends: false,
    minesOnDemand: false,
    keySecret: Buffer.alloc(32, 7),
    log: pino({ level: 'silent' }),
    ...options,
  });
  started.push(upstreams);
  return upstreams;
}

const read = (block = 'latest', address = '0x00000000000000000000000000000000000000aa') =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [address, block] });
const READ_AT_HEAD: NodeNeed = HEAD_READ;
const atBlock = (block: number, extra: Partial<NodeNeed> = {}): NodeNeed => ({
  ...HEAD_READ,
  readsHead: false,
  newest: BigInt(block),
  oldest: BigInt(block),
  ...extra,
});

/** The customer's calls a node received (the router's own head reads left out). */
const served = (n: Node, method = 'eth_getBalance') => n.calls.filter((c: NodeCall) => c.method === method).length;

async function answerOf(upstreams: NetworkUpstreams, body: string, need: NodeNeed): Promise<unknown> {
  const answer = await upstreams.send(body, need);
  return JSON.parse((await wholeBody(answer)).toString('utf8'));
}

describe('the router across a fleet of nodes', () => {
  it('gives a lagging node no call that reads the head until it catches up', async () => {
    const ahead = await node(200);
    const behind = await node(150);
    const upstreams = fleet([ahead, behind]);
    for (let i = 0; i < 100; i++) await answerOf(upstreams, read(), READ_AT_HEAD);
    expect(served(behind)).toBe(0);
    expect(served(ahead)).toBe(100);
    expect(upstreams.figures().map((n) => [n.state, n.lag])).toEqual([
      ['up', 0],
      ['lagging', 50],
    ]);
    // A call at a block it has still may go to it.
    for (let i = 0; i < 20; i++) await answerOf(upstreams, read(hex(100)), atBlock(100));
    expect(served(behind)).toBeGreaterThan(0);
    behind.head = 200;
    await until('the node caught up', async () => upstreams.figures()[1]?.state === 'up');
    const before = served(behind);
    for (let i = 0; i < 100; i++) await answerOf(upstreams, read(), READ_AT_HEAD);
    expect(served(behind) - before).toBeGreaterThan(30);
  });

  it('sends a call at block N only to nodes that have N, and far below the head to archive nodes first', async () => {
    const full = await node(1000);
    const archive = await node(1000);
    const short = await node(990);
    const upstreams = fleet([full, { url: archive.url, archive: true, weight: 1, maxInFlight: 0 }, short], {
      maxLagBlocks: 20,
    });
    for (let i = 0; i < 30; i++) await answerOf(upstreams, read(hex(995)), atBlock(995));
    expect(served(short)).toBe(0);
    const archiveBefore = served(archive);
    const fullBefore = served(full);
    for (let i = 0; i < 30; i++) await answerOf(upstreams, read(hex(10)), atBlock(10));
    expect(served(archive) - archiveBefore).toBe(30);
    expect(served(full) - fullBefore).toBe(0);
  });

  it('tries a read once more on another node when one lacks the data, and the caller sees the good answer', async () => {
    const block = { number: hex(150), hash: `0x${'ab'.repeat(32)}` };
    const pruned = await node(200, (call) =>
      call.method === 'eth_getBlockByNumber' ? null : { error: { code: -32000, message: 'header not found' } },
    );
    const good = await node(200, (call) => (call.method === 'eth_getBlockByNumber' ? block : '0x5'));
    const upstreams = fleet([pruned, good]);
    for (let i = 0; i < 40; i++) {
      expect(await answerOf(upstreams, read(hex(150)), atBlock(150))).toEqual({ jsonrpc: '2.0', id: 1, result: '0x5' });
      const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_getBlockByNumber', params: [hex(150), false] });
      const need = atBlock(150, { nullWhenMissing: true });
      expect(await answerOf(upstreams, body, need)).toEqual({ jsonrpc: '2.0', id: 2, result: block });
    }
    expect(served(pruned) + served(pruned, 'eth_getBlockByNumber')).toBeGreaterThan(0);
    expect(upstreams.retries).toBe(served(pruned) + served(pruned, 'eth_getBlockByNumber'));
  });

  it('shares 1 000 calls between two equal nodes within 45–55 %', async () => {
    const a = await node(100);
    const b = await node(100);
    const upstreams = fleet([a, b]);
    for (let i = 0; i < 1000; i++) await upstreams.send(read(), READ_AT_HEAD).then(wholeBody);
    expect(served(a)).toBeGreaterThanOrEqual(450);
    expect(served(a)).toBeLessThanOrEqual(550);
    expect(served(a) + served(b)).toBe(1000);
  });

  it('follows the weights of nodes otherwise equal', async () => {
    const heavy = await node(100);
    const light = await node(100);
    const upstreams = fleet([
      { url: heavy.url, archive: false, weight: 3, maxInFlight: 0 },
      { url: light.url, archive: false, weight: 1, maxInFlight: 0 },
    ]);
    for (let i = 0; i < 400; i++) await upstreams.send(read(), READ_AT_HEAD).then(wholeBody);
    expect(served(heavy)).toBeGreaterThan(250);
    expect(served(light)).toBeGreaterThan(50);
  });

  it('gives a node 100 ms slower less than 20 % of 1 000 calls', async () => {
    const fast = await node(100);
    const slow = await node(100, async () => {
      await sleep(100);
      return '0x1';
    });
    const upstreams = fleet([fast, slow]);
    for (let i = 0; i < 1000; i++) await upstreams.send(read(), READ_AT_HEAD).then(wholeBody);
    expect(served(slow)).toBeLessThan(200);
    expect(served(fast) + served(slow)).toBe(1000);
  });

  it('hedges slow reads: with one of three nodes stalling 2 s, the p99 stays under 3 × the fast nodes’ p99', async () => {
    // Nodes that answer in about 2 ms, as a near one does: a p99 of a fraction of a millisecond would
    // measure the machine's noise rather than the router.
    const answerSoon = async () => {
      await sleep(2);
      return '0x1';
    };
    const fastNodes = [await node(100, answerSoon), await node(100, answerSoon)];
    const stalling = await node(100, async () => {
      await sleep(2000);
      return '0x1';
    });
    const fastOnly = fleet(fastNodes, { hedgeMs: undefined });
    const withStall = fleet([...fastNodes, stalling], { hedgeMs: undefined });
    // The two fleets take turns, call by call, so that whatever else the machine does falls on both.
    const times = { fastOnly: [] as number[], withStall: [] as number[] };
    for (let i = 0; i < 600; i++) {
      for (const [name, upstreams] of [
        ['fastOnly', fastOnly],
        ['withStall', withStall],
      ] as const) {
        const at = performance.now();
        await upstreams.send(read(), READ_AT_HEAD).then(wholeBody);
        times[name].push(performance.now() - at);
      }
    }
    const p99 = (list: number[]) => list.sort((x, y) => x - y)[593] as number;
    expect(withStall.hedges).toBeGreaterThan(0);
    expect(withStall.hedges).toBeLessThanOrEqual(60);
    expect(p99(times.withStall)).toBeLessThan(3 * p99(times.fastOnly));
  });

  it('skips a node that answered 429 for its Retry-After, then uses it again', async () => {
    let limit = true;
    const limited = await node(100, () => {
      if (!limit) return '0x1';
      limit = false;
      return new HttpReply(429, { 'retry-after': '1' });
    });
    const other = await node(100);
    const upstreams = fleet([limited, other]);
    // Whichever node the first call reaches, the 429 is answered by the other one.
    for (let i = 0; i < 4; i++)
      expect(await answerOf(upstreams, read(), READ_AT_HEAD)).toMatchObject({ result: '0x1' });
    expect(upstreams.figures()[0]?.state).toBe('limited');
    const during = served(limited);
    for (let i = 0; i < 50; i++) await answerOf(upstreams, read(), READ_AT_HEAD);
    if (upstreams.figures()[0]?.state === 'limited') expect(served(limited)).toBe(during);
    await until('the limit is over', async () => upstreams.figures()[0]?.state === 'up', 5000);
    for (let i = 0; i < 50; i++) await answerOf(upstreams, read(), READ_AT_HEAD);
    expect(served(limited)).toBeGreaterThan(during);
    // A 429 is no failure: the node was never marked down.
    expect(upstreams.figures()[0]?.errorsLastMinute).toBe(1);
  });

  it('marks a node that stops answering down, serves every call from the others, and takes it back once it answers', async () => {
    const a = await node(100);
    const b = await node(100);
    const upstreams = fleet([a, b]);
    await upstreams.resolve();
    await a.close();
    for (let i = 0; i < 30; i++)
      expect(await answerOf(upstreams, read(), READ_AT_HEAD)).toMatchObject({ result: '0x1' });
    expect(upstreams.figures()[0]?.state).toBe('down');
    expect(served(b)).toBe(30);
  });

  it('sends a transaction to one node and never again after a timeout; broadcast sends it to every node once', async () => {
    const send = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x02f8'] });
    const need: NodeNeed = { ...HEAD_READ, kind: 'send', onlySends: true };
    const stalled = await node(100, async (call) => {
      if (call.method === 'eth_sendRawTransaction') await sleep(1000);
      return `0x${'cd'.repeat(32)}`;
    });
    const other = await node(100, () => `0x${'cd'.repeat(32)}`);
    const upstreams = fleet([stalled, other], { timeoutMs: 300 });
    await upstreams.resolve();
    // Balance the router so that the stalled node comes first.
    let sent = 0;
    while (served(stalled, 'eth_sendRawTransaction') === 0 && sent < 10) {
      sent += 1;
      await upstreams
        .send(send, need)
        .then(wholeBody)
        .catch((error: unknown) => {
          expect(error).toBeInstanceOf(UpstreamError);
          expect((error as UpstreamError).timedOut).toBe(true);
        });
    }
    expect(served(stalled, 'eth_sendRawTransaction')).toBe(1);
    // Each send reached exactly one node: the one that timed out was not followed by another.
    expect(served(stalled, 'eth_sendRawTransaction') + served(other, 'eth_sendRawTransaction')).toBe(sent);

    const a = await node(100, () => `0x${'ef'.repeat(32)}`);
    const b = await node(100, () => `0x${'ef'.repeat(32)}`);
    const broadcasting = fleet([a, b], { broadcastSends: true });
    expect(await answerOf(broadcasting, send, need)).toEqual({ jsonrpc: '2.0', id: 1, result: `0x${'ef'.repeat(32)}` });
    await until(
      'both nodes got it',
      async () => served(a, 'eth_sendRawTransaction') + served(b, 'eth_sendRawTransaction') === 2,
    );
    expect([served(a, 'eth_sendRawTransaction'), served(b, 'eth_sendRawTransaction')]).toEqual([1, 1]);
  });

  it('sends a filter’s follow-ups to the node that made it, and answers none when every node is gone', async () => {
    const a = await node(100);
    const b = await node(100);
    const upstreams = fleet([a, b]);
    await upstreams.resolve();
    const keyOfB = upstreams.figures().findIndex((n) => n.upstream === new URL(b.url).origin);
    expect(keyOfB).toBe(1);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getFilterChanges', params: ['0x1'] });
    const made = await upstreams.send(read(), READ_AT_HEAD);
    expect(made.node).toMatch(/^[0-9a-f]{8}$/);
    const holder = made.node as string;
    for (let i = 0; i < 20; i++)
      await upstreams.send(body, { ...HEAD_READ, kind: 'once', node: holder }).then(wholeBody);
    const holderNode = served(a) === 1 ? a : b;
    expect(served(holderNode, 'eth_getFilterChanges')).toBe(20);
    expect(upstreams.holds(holder)).toBe(true);
    expect(upstreams.holds('00000000')).toBe(false);
  });

  it('reports the network degraded while a node lags and down when none answers', async () => {
    const a = await node(100);
    const b = await node(90);
    const upstreams = fleet([a, b]);
    await upstreams.resolve();
    expect(upstreams.state()).toBe('degraded');
    b.head = 100;
    await until('caught up', async () => upstreams.state() === 'operational');
    await a.close();
    await b.close();
    await expect(upstreams.send(read(), READ_AT_HEAD)).rejects.toBeInstanceOf(UpstreamError);
    await expect(upstreams.send(read(), READ_AT_HEAD)).rejects.toBeInstanceOf(UpstreamError);
    await until('every node down', async () => upstreams.state() === 'down', 10_000);
  });
});
