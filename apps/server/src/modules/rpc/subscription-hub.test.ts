import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rpcWebSocketUrl } from '@ebs/contract';
import { toEventSelector } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startAnvil } from '../../testing/anvil.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey } from '../../testing/keys.ts';
import { serverFor } from '../../testing/server.ts';
import { WsClient } from '../../testing/ws-client.ts';
import { nodeCall } from './anvil-nodes.ts';

const NETWORK = 'ethereum/mainnet';
/** A contract that logs `Ping()` on every call: PUSH32 topic, PUSH1 0, PUSH1 0, LOG1, STOP. */
const EMITTER = '0x00000000000000000000000000000000000e1117';
const PING = toEventSelector('Ping()');
const EMITTER_CODE = `0x7f${PING.slice(2)}60006000a100`;
/** Anvil's first development account (unlocked on a node a test starts). */
const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

const dir = await mkdtemp(path.join(tmpdir(), 'ebs-restart-'));
const statePath = path.join(dir, 'chain.json');
const port = await freePort();
let node = await startAnvil(1, { statePath, port });
const httpUrl = node.url;
afterAll(async () => {
  await node.stop();
  await rm(dir, { recursive: true, force: true });
});

/**
 * One block with one Ping log (a call to the emitter). Blocks are made on demand (automine off): a
 * node that mines as transactions come may put two in one block when they come together.
 */
const ping = async () => {
  await nodeCall(httpUrl, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, to: EMITTER, gas: '0x10000' }]);
  await nodeCall(httpUrl, 'evm_mine');
};
const head = async () => Number(await nodeCall(httpUrl, 'eth_blockNumber'));

describe('subscriptions through a restart of the node', () => {
  const server = serverFor(pglite, {
    RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [httpUrl, httpUrl.replace(/^http/, 'ws')] }),
  });

  it('keeps every client subscription and its id, with every block and log exactly once, in order', async () => {
    await nodeCall(httpUrl, 'anvil_setCode', [EMITTER, EMITTER_CODE]);
    await nodeCall(httpUrl, 'evm_setAutomine', [false]);
    const holder = await accountWithKey(server().url, server().db);
    const url = rpcWebSocketUrl(server().url, NETWORK, holder.keyId, holder.key);
    const clients = [await WsClient.open(url), await WsClient.open(url), await WsClient.open(url)];
    const heads = await Promise.all(clients.map(async (c) => (await c.call('eth_subscribe', ['newHeads'])).result));
    const logsClient = clients[0] as WsClient;
    const logs = (await logsClient.call('eth_subscribe', ['logs', { address: EMITTER, topics: [PING] }])).result;
    const first = (await head()) + 1;

    for (let i = 0; i < 3; i++) await ping();
    await Promise.all(clients.map((c, i) => c.notified(heads[i] as string, 3)));

    // The node goes away and comes back where it was; blocks are made before the gateway is back.
    await node.stop();
    node = await startAnvil(1, { statePath, port });
    await nodeCall(httpUrl, 'evm_setAutomine', [false]);
    for (let i = 0; i < 4; i++) await ping();
    const last = await head();
    expect(last).toBe(first + 6);
    for (let i = 0; i < 2; i++) await ping();

    const blocks = last + 2 - first + 1;
    for (const [i, client] of clients.entries()) {
      const received = await client.notified(heads[i] as string, blocks);
      expect(received.map((h) => Number(h.number))).toEqual(Array.from({ length: blocks }, (_, n) => first + n));
      // Nothing else arrived under another id, and nothing twice.
      expect(client.notifications.every((n) => n.subscription === heads[i] || n.subscription === logs)).toBe(true);
      expect(client.closed).toBeNull();
    }
    const logged = await logsClient.notified(logs as string, blocks);
    expect(logged.map((l) => Number(l.blockNumber))).toEqual(Array.from({ length: blocks }, (_, n) => first + n));
    expect(logged.every((l) => (l.topics as string[])[0] === PING)).toBe(true);
    // One upstream subscription per distinct filter, again after the restart.
    expect(server().deps.rpc.subscriptions(NETWORK)?.upstreamSubscriptions).toBe(2);
    for (const client of clients) client.close();
  });
});
