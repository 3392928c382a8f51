import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { insertOwnedAccount } from '../../testing/owned-account.ts';
import { keepInsight } from './insight-retention.job.ts';
import { percentile, record } from './latency-histogram.ts';
import {
  ALL_KEYS,
  ALL_NETWORKS,
  addMethodStats,
  type MethodStatCount,
  readMethodSeries,
  readMethodStats,
} from './method-stats.store.ts';
import { addRequests, listRequests } from './request-log.store.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEY = '00000000-0000-4000-8000-000000000001';
const OTHER_KEY = '00000000-0000-4000-8000-000000000002';

describe.each(testDatabases)('the gateway’s figures kept on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let accountId: string;

  beforeAll(async () => {
    ({ db, close } = await database.open());
    accountId = await insertOwnedAccount(db, 'figures');
  });
  afterAll(() => close());

  const hourOf = (hour: number, calls: number, latencyMs: number, apiKeyId = KEY): MethodStatCount => {
    const latency: number[] = [];
    for (let i = 0; i < calls; i++) record(latency, latencyMs);
    return {
      accountId,
      apiKeyId,
      network: 'ethereum/mainnet',
      method: 'eth_call',
      hour,
      calls,
      // A read costs one unit a call, as priced when none is set.
      computeUnits: calls,
      rpcErrors: 1,
      refused: 0,
      upstreamErrors: 0,
      latency,
    };
  };

  it('adds each flush to its key’s hour, day and week and to the day and week of all keys, and forgets hours after a week and days after 90', async () => {
    const now = Date.parse('2026-06-30T12:30:00Z');
    const today = Date.parse('2026-06-30T00:00:00Z');
    const tenDaysAgo = today - 10 * DAY;
    // Two flushes of one hour (two processes), a second hour of that day by another key, a day past keeping.
    await addMethodStats(db, [hourOf(tenDaysAgo + 3 * HOUR, 10, 2)]);
    await addMethodStats(db, [hourOf(tenDaysAgo + 3 * HOUR, 30, 2), hourOf(tenDaysAgo + 5 * HOUR, 60, 40, OTHER_KEY)]);
    await addMethodStats(db, [hourOf(today - 100 * DAY, 5, 1), hourOf(today + 12 * HOUR, 7, 3)]);
    const days = { from: new Date(tenDaysAgo), to: new Date(today + DAY), period: 'day' as const };
    const before = await readMethodStats(db, accountId, days);
    expect(before).toEqual([expect.objectContaining({ calls: 107, computeUnits: 107, errors: 4 })]);
    // The hours of the same range hold the same figures, whichever way they are summed.
    const hours = { ...days, period: 'hour' as const };
    expect((await readMethodStats(db, accountId, hours))[0]).toEqual(before[0]);
    const oneKey = await readMethodStats(db, accountId, { ...days, apiKeyId: OTHER_KEY });
    expect(oneKey[0]).toMatchObject({ calls: 60, computeUnits: 60, errors: 1 });
    expect(percentile(oneKey[0]?.latency ?? [], 0.5)).toBeCloseTo(40, -1);

    await Promise.all([keepInsight(db, now), keepInsight(db, now)]);
    expect(await readMethodStats(db, accountId, days)).toEqual(before);
    expect(await readMethodStats(db, accountId, { ...hours, from: new Date(today) })).toEqual([
      expect.objectContaining({ calls: 7 }),
    ]);
    const kept = await db
      .selectFrom('rpc_method_stats')
      .select(['period', 'period_start', 'api_key_id', 'network', 'calls', 'compute_units'])
      .where('account_id', '=', accountId)
      .orderBy('period_start')
      .orderBy('period')
      .orderBy('api_key_id')
      .orderBy('network')
      .execute();
    const at = (ms: number) => new Date(ms).toISOString().slice(0, 13);
    const row = (r: (typeof kept)[number]) => [
      r.period,
      at(new Date(r.period_start).getTime()),
      r.api_key_id,
      r.network,
    ];
    const ETH = 'ethereum/mainnet';
    expect(kept.every((r) => r.compute_units === r.calls)).toBe(true);
    expect(kept.map((r) => [...row(r), Number(r.calls)])).toEqual([
      // Weeks start on Mondays: 2026-06-15 and 2026-06-29. A day is also kept over all networks ('*').
      ['week', '2026-06-15T00', ALL_KEYS, ETH, 100],
      ['week', '2026-06-15T00', KEY, ETH, 40],
      ['week', '2026-06-15T00', OTHER_KEY, ETH, 60],
      ['day', at(tenDaysAgo), ALL_KEYS, ALL_NETWORKS, 100],
      ['day', at(tenDaysAgo), ALL_KEYS, ETH, 100],
      ['day', at(tenDaysAgo), KEY, ALL_NETWORKS, 40],
      ['day', at(tenDaysAgo), KEY, ETH, 40],
      ['day', at(tenDaysAgo), OTHER_KEY, ALL_NETWORKS, 60],
      ['day', at(tenDaysAgo), OTHER_KEY, ETH, 60],
      ['week', '2026-06-29T00', ALL_KEYS, ETH, 7],
      ['week', '2026-06-29T00', KEY, ETH, 7],
      ['day', at(today), ALL_KEYS, ALL_NETWORKS, 7],
      ['day', at(today), ALL_KEYS, ETH, 7],
      ['day', at(today), KEY, ALL_NETWORKS, 7],
      ['day', at(today), KEY, ETH, 7],
      ['hour', at(today + 12 * HOUR), KEY, ETH, 7],
    ]);
    // A month read by its whole weeks and its last days answers what its days do.
    const month = { from: new Date('2026-06-01T00:00:00Z'), to: new Date(today + DAY), period: 'day' as const };
    expect(await readMethodStats(db, accountId, month)).toEqual(before);
    expect(await readMethodStats(db, accountId, { ...month, apiKeyId: OTHER_KEY })).toEqual(oneKey);
  });

  it('reads a chart’s days with calls per method and latency over all methods of each day', async () => {
    const day = Date.parse('2026-05-04T00:00:00Z');
    const on = (hour: number, method: string, calls: number, latencyMs: number) => ({
      ...hourOf(hour, calls, latencyMs),
      network: 'base/mainnet',
      method,
      computeUnits: method === 'eth_call' ? 5 * calls : 0,
    });
    await addMethodStats(db, [
      on(day + HOUR, 'eth_call', 10, 2),
      on(day + 2 * HOUR, 'eth_chainId', 30, 40),
      on(day + DAY + HOUR, 'eth_call', 5, 2),
    ]);
    const series = await readMethodSeries(db, accountId, {
      from: new Date(day),
      to: new Date(day + 2 * DAY),
      period: 'day',
      network: 'base/mainnet',
    });
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    expect(series.byMethod.map((p) => [iso(p.time), p.method, p.calls, p.errors, p.computeUnits])).toEqual([
      ['2026-05-04', 'eth_call', 10, 1, 50],
      ['2026-05-04', 'eth_chainId', 30, 1, 0],
      ['2026-05-05', 'eth_call', 5, 1, 25],
    ]);
    const total = (h: number[]) => h.reduce((a, b) => a + b, 0);
    expect(series.latency.map((p) => [iso(p.time), total(p.latency)])).toEqual([
      ['2026-05-04', 40],
      ['2026-05-05', 5],
    ]);
    expect(percentile(series.latency[0]?.latency ?? [], 0.5)).toBeCloseTo(40, -1);
    expect(percentile(series.latency[1]?.latency ?? [], 0.5)).toBeCloseTo(2, 0);

    // Every network: the days' rows over all networks, which add a second network's calls.
    await addMethodStats(db, [{ ...on(day + 3 * HOUR, 'eth_call', 6, 400), network: 'bsc/mainnet' }]);
    const everyNetwork = await readMethodSeries(db, accountId, {
      from: new Date(day),
      to: new Date(day + 2 * DAY),
      period: 'day',
    });
    expect(everyNetwork.byMethod.map((p) => [iso(p.time), p.method, p.calls, p.errors, p.computeUnits])).toEqual([
      ['2026-05-04', 'eth_call', 16, 2, 80],
      ['2026-05-04', 'eth_chainId', 30, 1, 0],
      ['2026-05-05', 'eth_call', 5, 1, 25],
    ]);
    expect(everyNetwork.latency.map((p) => [iso(p.time), total(p.latency)])).toEqual([
      ['2026-05-04', 46],
      ['2026-05-05', 5],
    ]);
    // The methods' figures keep each network apart and count each call once.
    const methods = await readMethodStats(db, accountId, {
      from: new Date(day),
      to: new Date(day + 2 * DAY),
      period: 'day',
    });
    expect(methods.map((m) => [m.method, m.network, m.calls, m.computeUnits])).toEqual([
      ['eth_chainId', 'base/mainnet', 30, 0],
      ['eth_call', 'base/mainnet', 15, 75],
      ['eth_call', 'bsc/mainnet', 6, 30],
    ]);
  });

  it('forgets logged requests after a week', async () => {
    const now = Date.parse('2026-06-30T12:30:00Z');
    const logged = (at: number) => ({
      accountId,
      apiKeyId: KEY,
      network: 'ethereum/mainnet',
      methods: ['eth_call'],
      httpStatus: 200,
      errorCode: null,
      errorMessage: null,
      requestChars: 60,
      failed: false,
      latencyMs: 1.5,
      clientIp: '203.0.113.9',
      origin: null,
      at: new Date(at),
    });
    await addRequests(db, [logged(now - 8 * DAY), logged(now - DAY)]);
    await keepInsight(db, now);
    const kept = await listRequests(db, accountId, { since: new Date(0), limit: 10, offset: 0 });
    expect(kept.requests.map((r) => r.time)).toEqual([new Date(now - DAY).toISOString()]);
  });
});
