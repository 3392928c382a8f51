import { type MethodStatList, type ResourceUsageList, rpcWebSocketUrl, type TransactionList } from '@ebs/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { accountWithKey, type KeyHolder, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { serverFor } from '../../testing/server.ts';
import { WsClient } from '../../testing/ws-client.ts';
import { billUsage } from '../billing/usage-billing.job.ts';
import { setComputeUnits } from '../usage/index.ts';
import { nodeCall } from './anvil-nodes.ts';

const NETWORK = 'ethereum/mainnet';
const RESOURCE = 'RPC_API_ETHEREUM_MAINNET';
const ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const hex = (n: number) => `0x${n.toString(16)}`;

/** What the records and the ledger must say: calls, compute units, and their price at $20 per million (10⁻⁶ USD exact). */
const micro = (units: number) => units * 20;

describe.each(testDatabases)('pricing a mixed workload on $name', (database) => {
  const server = serverFor(database, { USAGE_FLUSH_SECONDS: '60', RPC_GET_LOGS_MAX_RANGE: '10000' });
  const clients: WsClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  const usage = async (holder: KeyHolder) =>
    (await holder.client.get<ResourceUsageList>('/api/v1.0/usage/api/billing?limit=10&offset=0', holder.headers)).body
      .data.accountResourceUsage;

  it('prices each call by its class, eth_getLogs by its range, notifications by their size, and bills the sum to the micro-dollar', {
    timeout: 120_000,
  }, async () => {
    const holder = await accountWithKey(server().url, server().db, '10');
    const url = holder.url(NETWORK);
    const call = async (method: string, params: unknown[] = []) => {
      const answer = await rpcCall(url, { jsonrpc: '2.0', id: 1, method, params });
      expect([method, answer.status]).toEqual([method, 200]);
      return answer.body;
    };
    let calls = 0;
    let units = 0;
    const expectCall = async (method: string, params: unknown[], cu: number) => {
      const body = await call(method, params);
      expect([method, body.error]).toEqual([method, undefined]);
      calls += 1;
      units += cu;
    };
    // The network's constant (0 units) starts its local node; then a chain long enough for ranges
    // of thousands of blocks, and a transaction to trace.
    await expectCall('eth_chainId', [], 0);
    const nodeUrl = (await server().deps.rpc.localNodeUrl(NETWORK)) as string;
    await nodeCall(nodeUrl, 'anvil_setBalance', [ADDRESS, hex(10 ** 18)]);
    const hash = (await nodeCall(nodeUrl, 'eth_sendTransaction', [
      { from: ADDRESS, to: '0x0000000000000000000000000000000000000001', value: '0x1' },
    ])) as string;
    await nodeCall(nodeUrl, 'anvil_mine', [hex(2100)]);

    // Ordinary reads (1), and a state read at an old block, again until the cache answers it (once
    // the gateway's head is past it by the cache's depth): a cache hit costs its class's units...
    await expectCall('eth_blockNumber', [], 1);
    await expectCall('eth_getBalance', [ADDRESS, 'latest'], 1);
    let balances = { calls: 0, units: 0 };
    const oldBalance = async () => {
      const answer = await rpcCall(url, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [ADDRESS, '0x10'] });
      expect([answer.status, answer.body.error]).toEqual([200, undefined]);
      return answer.headers.get('x-cache') === 'HIT';
    };
    await until(
      'a read answered from the cache',
      async () => {
        const hit = await oldBalance();
        balances = { calls: balances.calls + 1, units: balances.units + 1 };
        return hit || undefined;
      },
      30_000,
      100,
    );
    // ...unless the operator prices cache hits: the same read, from the cache, costs what they chose.
    await setComputeUnits(server().db, 'cached', 0);
    await server().deps.rpc.prices.refresh();
    expect(await oldBalance()).toBe(true);
    balances = { calls: balances.calls + 1, units: balances.units };
    calls += balances.calls;
    units += balances.units;
    await setComputeUnits(server().db, 'cached', null);
    await server().deps.rpc.prices.refresh();
    // eth_getLogs: 5 per started 1 000 blocks.
    await expectCall('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x1' }], 5);
    await expectCall('eth_getLogs', [{ fromBlock: '0x1', toBlock: hex(1500) }], 10);
    await expectCall('eth_getLogs', [{ fromBlock: '0x1', toBlock: hex(2001) }], 15);
    await expectCall('eth_getLogs', [{ fromBlock: hex(1001), toBlock: hex(2000) }], 5);
    // A range past the gateway's limit is refused there: a call, no units.
    const refused = await call('eth_getLogs', [{ fromBlock: '0x0', toBlock: hex(20_000) }]);
    expect(refused.error?.code).toBe(-32005);
    calls += 1;
    // The heaviest class.
    await expectCall('debug_traceTransaction', [hash], 50);
    // A batch costs the sum of its calls: a read, a call with a state override, a send that fails at
    // the node (its class still), and a node-signing call refused by the gateway (not a call at all).
    const batch = await rpcCall(url, [
      { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionCount', params: [ADDRESS, 'latest'] },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'eth_call',
        params: [{ to: ADDRESS, data: '0x' }, 'latest', { [ADDRESS]: { balance: '0x1' } }],
      },
      { jsonrpc: '2.0', id: 3, method: 'eth_sendRawTransaction', params: ['0x00'] },
      { jsonrpc: '2.0', id: 4, method: 'eth_sign', params: [ADDRESS, '0x00'] },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body.map((a) => [a.id, a.error === undefined])).toEqual([
      [1, true],
      [2, true],
      [3, false],
      [4, false],
    ]);
    calls += 3;
    units += 1 + 5 + 10;

    // A subscription: subscribe and unsubscribe 1 each, each notification 1 per started KiB delivered.
    const ws = await WsClient.open(rpcWebSocketUrl(server().url, NETWORK, holder.keyId, holder.key));
    clients.push(ws);
    const id = (await ws.call('eth_subscribe', ['newHeads'])).result as string;
    for (let i = 0; i < 3; i += 1) await nodeCall(nodeUrl, 'evm_mine');
    await ws.notified(id, 3);
    expect((await ws.call('eth_unsubscribe', [id])).result).toBe(true);
    const notificationUnits = ws.notificationBytes.map((bytes) => Math.ceil(bytes / 1024));
    expect(notificationUnits.every((cu) => cu >= 1)).toBe(true);
    calls += 2 + notificationUnits.length;
    units += 2 + notificationUnits.reduce((a, b) => a + b, 0);

    await server().deps.rpc.meter.flush();
    await server().deps.rpc.insight.flush();
    // The Analytics page's figures: each method's calls and compute units.
    const { methods } = (await holder.client.get<MethodStatList>('/api/v1.0/usage/api/methods', holder.headers)).body
      .data;
    const byMethod = (name: string) => methods.find((m) => m.method === name);
    expect(byMethod('eth_getLogs')).toMatchObject({ calls: 5, computeUnits: 5 + 10 + 15 + 5 });
    expect(byMethod('debug_traceTransaction')).toMatchObject({ calls: 1, computeUnits: 50 });
    expect(byMethod('eth_getBalance')).toMatchObject({ calls: balances.calls + 1, computeUnits: balances.units + 1 });
    const [record] = await usage(holder);
    expect(record).toMatchObject({ resourceName: RESOURCE, usage: calls, computeUnits: units, status: 'PENDING' });
    expect(Math.round((record?.price ?? 0) * 1e6)).toBe(micro(units));

    await billUsage(server().db, { includeToday: true });
    const { transactions } = (
      await holder.client.get<TransactionList>(
        '/api/v1.0/transaction?limit=10&offset=0&typeIn=%5B%22WITHDRAW_RESOURCE_USAGE%22%5D',
        holder.headers,
      )
    ).body.data;
    expect(transactions.map((t) => Math.round(t.amount * 1e6))).toEqual([-micro(units)]);
    expect((await usage(holder))[0]?.status).toBe('BILLED');
  });
});
