import { findRpcNetwork, RpcErrorCodes, RpcMessages } from '@ebs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../app/commands.ts';
import { startAnvil } from '../../testing/anvil.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { type NodeCall, startScriptedNode } from '../../testing/scripted-node.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

const hex = (n: number) => `0x${n.toString(16)}`;

describe('the gateway across two scripted nodes: filters stay on the node that made them', () => {
  const NETWORK = 'bsc/testnet';
  const chainId = hex(findRpcNetwork(NETWORK)?.chainId ?? 0);
  let nodes: Array<Awaited<ReturnType<typeof startScriptedNode>>> = [];
  let made = 0;
  const script = (call: NodeCall) => {
    if (call.method === 'eth_chainId') return chainId;
    if (call.method === 'eth_blockNumber') return hex(500);
    if (call.method === 'eth_newBlockFilter') return hex(++made);
    if (call.method === 'eth_getFilterChanges') return [];
    return '0x0';
  };
  beforeAll(async () => {
    nodes = [await startScriptedNode(script), await startScriptedNode(script)];
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.close().catch(() => undefined)));
  });

  it('sends every follow-up of a filter to its node, and answers "filter not found" once that node is gone', async () => {
    const opened = await pglite.open();
    const gateway = await startServer(opened.db, {
      RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: nodes.map((n) => n.url) }),
      RPC_HEAD_POLL_MS: '100',
      RPC_HEALTH_CHECK_SECONDS: '60',
    });
    try {
      const holder = await accountWithKey(gateway.url, gateway.db);
      const url = holder.url(NETWORK);
      const call = (method: string, params: unknown[], id = 1) => rpcCall(url, { jsonrpc: '2.0', id, method, params });
      const filters: string[] = [];
      for (let i = 0; i < 4; i++) filters.push(String((await call('eth_newBlockFilter', [])).body.result));
      const makers = nodes.map((n) => n.calls.filter((c) => c.method === 'eth_newBlockFilter').length);
      // Both nodes made filters: the router shares the calls.
      expect(makers.every((n) => n > 0)).toBe(true);
      for (const filter of filters) {
        for (let i = 0; i < 5; i++) expect((await call('eth_getFilterChanges', [filter])).body.result).toEqual([]);
      }
      // Each node received the follow-ups of its own filters only.
      for (const [i, node] of nodes.entries()) {
        expect(node.calls.filter((c) => c.method === 'eth_getFilterChanges')).toHaveLength(5 * (makers[i] as number));
      }
      // A batch naming filters of both nodes is answered whole.
      const batch = await rpcCall(
        url,
        filters.map((f, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getFilterChanges', params: [f] })),
      );
      expect((batch.body as unknown as Array<{ result: unknown }>).map((a) => a.result)).toEqual([[], [], [], []]);

      const lost = nodes[0];
      await lost?.close();
      const owned = filters.filter((_, i) => i % 2 === 0);
      // Its first failed calls mark it down; from then on its filters are gone.
      for (let i = 0; i < 3; i++) await call('eth_getFilterChanges', [owned[0]]);
      await until('the node is down', async () => {
        const { json } = await runCommand(gateway.db, ['rpc', 'upstreams'], {}, gateway.deps.rpc);
        return (json as Array<{ nodes: Array<{ state: string }> }>)[0]?.nodes[0]?.state === 'down';
      });
      const answers = await Promise.all(filters.map((f) => call('eth_getFilterChanges', [f])));
      const lostIds = answers.filter((a) => a.body.error?.code === RpcErrorCodes.filterNotFound);
      expect(lostIds.length).toBeGreaterThan(0);
      expect(lostIds[0]?.body.error?.message).toBe(RpcMessages.filterNotFound);
      expect(answers.filter((a) => Array.isArray(a.body.result)).length).toBe(filters.length - lostIds.length);
    } finally {
      await gateway.close();
      await opened.close();
    }
  });
});

describe('the gateway across two Anvil nodes', () => {
  const NETWORK = 'aurora/testnet';
  const chainId = findRpcNetwork(NETWORK)?.chainId ?? 0;
  let anvils: Array<Awaited<ReturnType<typeof startAnvil>>> = [];
  let gateway: TestServer;
  let closeDb: () => Promise<void>;
  beforeAll(async () => {
    anvils = [await startAnvil(chainId), await startAnvil(chainId)];
    const opened = await pglite.open();
    closeDb = opened.close;
    gateway = await startServer(opened.db, {
      RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: anvils.map((a) => a.url) }),
      RPC_HEAD_POLL_MS: '100',
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await closeDb?.();
    await Promise.all(anvils.map((a) => a.stop()));
  });

  it('answers the head from the node that has it while the other lags, and shares the calls again once it catches up', async () => {
    const holder = await accountWithKey(gateway.url, gateway.db);
    const url = holder.url(NETWORK);
    const mine = (nodeUrl: string, blocks: number) =>
      fetch(nodeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [hex(blocks)] }),
      });
    const figures = async () =>
      (
        (await runCommand(gateway.db, ['rpc', 'upstreams'], {}, gateway.deps.rpc)).json as Array<{
          network: string;
          nodes: Array<{ state: string; selected: number; head: string }>;
        }>
      ).find((f) => f.network === NETWORK)?.nodes ?? [];
    // The first call starts the network's nodes.
    expect((await rpcCall(url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })).status).toBe(200);
    await mine(anvils[0]?.url as string, 20);
    await until('the second node lags', async () => (await figures())[1]?.state === 'lagging');
    // Every head read names the first node's head: never the stale one.
    for (let i = 0; i < 40; i++) {
      const address = `0x${(i + 1).toString(16).padStart(40, '0')}`;
      const balance = await rpcCall(url, {
        jsonrpc: '2.0',
        id: i,
        method: 'eth_getBalance',
        params: [address, 'latest'],
      });
      expect(balance.status).toBe(200);
      const head = await rpcCall(url, { jsonrpc: '2.0', id: `h${i}`, method: 'eth_blockNumber', params: [] });
      expect(head.body.result).toBe(hex(20));
    }
    const lagging = (await figures())[1]?.selected ?? 0;
    await mine(anvils[1]?.url as string, 20);
    await until('the second node caught up', async () => (await figures())[1]?.state === 'up');
    for (let i = 0; i < 40; i++) {
      const address = `0x${(i + 100).toString(16).padStart(40, '0')}`;
      await rpcCall(url, { jsonrpc: '2.0', id: i, method: 'eth_getBalance', params: [address, 'latest'] });
    }
    expect(((await figures())[1]?.selected ?? 0) - lagging).toBeGreaterThan(5);
    const { text } = await runCommand(gateway.db, ['rpc', 'upstreams'], {}, gateway.deps.rpc);
    expect(text).toContain(`${NETWORK}: `);
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:\d+ \(archive\)|http:\/\/127\.0\.0\.1:\d+ {2}up/);
  });
});
