import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { pglite } from '../../testing/databases.ts';
import { insertOwnedAccount } from '../../testing/owned-account.ts';
import { methodRuns } from '../rpc/rpc-request.ts';
import { GatewayInsight } from './gateway-insight.ts';
import { readMethodStats } from './method-stats.store.ts';
import { INVALID_METHOD } from './observed-request.ts';
import { listRequests } from './request-log.store.ts';
import { FAILURES_LOGGED_PER_FLUSH, SUCCESSES_LOGGED_PER_FLUSH } from './request-sample.ts';

const KEY = '00000000-0000-4000-8000-0000000000aa';
const quiet = { error() {} } as never;
/** A request's methods as the gateway's parser hands them over. */
const runs = (...methods: string[]) => methodRuns(methods.map((method) => ({ method })));

describe('the gateway’s insight in memory', () => {
  let db: Db;
  let close: () => Promise<void>;
  let accountId: string;
  beforeAll(async () => {
    ({ db, close } = await pglite.open());
    accountId = await insertOwnedAccount(db, 'insight');
  });
  afterAll(() => close());

  const seen = () => ({
    accountId,
    apiKeyId: KEY,
    network: 'ethereum/mainnet',
    clientIp: '203.0.113.1',
    origin: undefined,
  });
  const day = () => {
    const now = Date.now();
    const start = now - (now % 86_400_000);
    return { from: new Date(start), to: new Date(start + 86_400_000), period: 'day' as const };
  };

  it('counts a batch per method, every made-up method name as one, and keeps the log within its bounds', async () => {
    const insight = new GatewayInsight(db, quiet, true);
    insight.record(seen(), runs('eth_call', 'eth_call', 'eth_chainId'), 200, 3, [null, -32000, null]);
    for (const made of ['x'.repeat(100), '42', 'no spaces allowed', '']) insight.record(seen(), runs(made), 200, 1);
    for (let i = 0; i < 3 * FAILURES_LOGGED_PER_FLUSH; i++) insight.record(seen(), runs('eth_sign'), 200, 1, [-32601]);
    for (let i = 0; i < 1000; i++) insight.record(seen(), runs('eth_blockNumber'), 200, 1);
    expect(insight.unflushed).toBe(3 + 4 + 3 * FAILURES_LOGGED_PER_FLUSH + 1000);
    await insight.flush();

    const figures = Object.fromEntries(
      (await readMethodStats(db, accountId, day())).map((m) => [m.method, [m.calls, m.errors]]),
    );
    expect(figures).toEqual({
      eth_blockNumber: [1000, 0],
      eth_sign: [3 * FAILURES_LOGGED_PER_FLUSH, 3 * FAILURES_LOGGED_PER_FLUSH],
      eth_call: [2, 1],
      [INVALID_METHOD]: [4, 0],
      eth_chainId: [1, 0],
    });
    const since = new Date(0);
    const failed = await listRequests(db, accountId, { since, failedOnly: true, limit: 10, offset: 0 });
    // The batch with its failed call, then the method policy's refusals up to the bound.
    expect(failed.totalCount).toBe(FAILURES_LOGGED_PER_FLUSH);
    const all = await listRequests(db, accountId, { since, limit: 10, offset: 0 });
    expect(all.totalCount).toBe(FAILURES_LOGGED_PER_FLUSH + SUCCESSES_LOGGED_PER_FLUSH);
    expect(insight.dropped).toBe(2 * FAILURES_LOGGED_PER_FLUSH + 1);
  });

  it('counts interleaved methods of a batch each under its own, errors by kind, latency once per call', async () => {
    const insight = new GatewayInsight(db, quiet, true);
    const other = { ...seen(), network: 'base/mainnet' };
    const batch = ['eth_call', 'eth_call', 'eth_chainId', 'eth_call', 'eth_chainId'];
    insight.record(other, runs(...batch), 200, 4, [null, -32000, null, -32000, null]);
    insight.record(other, runs(...batch), 503, 2);
    insight.record(other, runs(...batch.slice(0, 3)), 429, 1);
    await insight.flush();
    const totals = Object.fromEntries(
      [...insight.totals.values()].filter((t) => t.network === 'base/mainnet').map((t) => [t.method, t]),
    );
    expect(totals.eth_call).toMatchObject({
      calls: 8,
      computeUnits: 0,
      rpcErrors: 2,
      upstreamErrors: 3,
      refused: 2,
      latencySumMs: 20,
    });
    expect(totals.eth_chainId).toMatchObject({
      calls: 5,
      computeUnits: 0,
      rpcErrors: 0,
      upstreamErrors: 2,
      refused: 1,
      latencySumMs: 13,
    });
    expect(totals.eth_call?.latency.reduce((a, b) => a + b, 0)).toBe(8);
  });

  it('counts the calls of an answered batch that the key’s rules refused as refused, not as errors', async () => {
    const insight = new GatewayInsight(db, quiet, true);
    const other = { ...seen(), network: 'aurora/mainnet' };
    const batch = ['eth_call', 'eth_gasPrice', 'eth_call'];
    insight.record(other, runs(...batch), 200, 3, [-32000, -32003, null], undefined, 120, {
      refusedCalls: [false, true, false],
    });
    await insight.flush();
    const totals = Object.fromEntries(
      [...insight.totals.values()].filter((t) => t.network === 'aurora/mainnet').map((t) => [t.method, t]),
    );
    expect(totals.eth_gasPrice).toMatchObject({ calls: 1, rpcErrors: 0, refused: 1 });
    expect(totals.eth_call).toMatchObject({ calls: 2, rpcErrors: 1, refused: 0 });
  });

  it('counts each call’s compute units under its method, a single call’s and a batch’s of two methods', async () => {
    const insight = new GatewayInsight(db, quiet, true);
    const other = { ...seen(), network: 'arbitrum/mainnet' };
    insight.record(other, runs('eth_getLogs'), 200, 2, undefined, undefined, 80, undefined, [15]);
    const batch = ['eth_call', 'eth_call', 'eth_blockNumber', 'eth_call'];
    insight.record(other, runs(...batch), 200, 3, [null, -32000, null, null], undefined, 300, {}, [5, 1, 1, 5]);
    // Without units its calls count none; a refused request counts what it is handed.
    insight.record(other, runs('eth_call'), 200, 1);
    insight.record(other, runs('eth_getLogs'), 429, 1, undefined, -32005, 80, {}, [5]);
    await insight.flush();
    const methods = await readMethodStats(db, accountId, { ...day(), network: 'arbitrum/mainnet' });
    expect(Object.fromEntries(methods.map((m) => [m.method, [m.calls, m.computeUnits]]))).toEqual({
      eth_call: [4, 11],
      eth_getLogs: [2, 20],
      eth_blockNumber: [1, 1],
    });
    const totals = [...insight.totals.values()].filter((t) => t.network === 'arbitrum/mainnet');
    expect(Object.fromEntries(totals.map((t) => [t.method, t.computeUnits]))).toEqual({
      eth_call: 11,
      eth_getLogs: 20,
      eth_blockNumber: 1,
    });
  });

  it('counts past 100 made-up method names of one key’s hour as (other)', async () => {
    const insight = new GatewayInsight(db, quiet, true);
    const other = { ...seen(), network: 'polygon/mainnet' };
    for (let i = 0; i < 150; i++) insight.record(other, runs(`made_up${i}`), 200, 1);
    await insight.flush();
    const methods = await readMethodStats(db, accountId, { ...day(), network: 'polygon/mainnet' });
    expect(methods).toHaveLength(101);
    expect(methods[0]).toMatchObject({ method: '(other)', calls: 50 });
  });

  it('records nothing when turned off', async () => {
    const insight = new GatewayInsight(db, quiet, false);
    insight.record(seen(), runs('eth_call'), 200, 1);
    expect(insight.unflushed).toBe(0);
  });
});
