import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { insertAccount } from '../accounts/accounts.test-kit.ts';
import { insertUser } from '../identity/identity.test-kit.ts';
import { keepInsight } from './insight-retention.job.ts';
import { percentile, record } from './latency-histogram.ts';
import { addMethodStats, type MethodStatCount, readMethodStats } from './method-stats.store.ts';
import { addRequests, listRequests } from './request-log.store.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEY = '00000000-0000-4000-8000-000000000001';

describe.each(testDatabases)('the gateway’s figures kept on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let accountId: string;

  beforeAll(async () => {
    ({ db, close } = await database.open());
    const owner = await insertUser(db, {
      email: 'figures@example.com',
      givenName: 'A',
      familyName: 'B',
      passwordHash: 'h',
      referralCode: null,
    });
    accountId = (await insertAccount(db, { name: 'figures', customerId: null, ownerId: owner, roleName: 'OWNER' })).id;
  });
  afterAll(() => close());

  const hourOf = (hour: number, calls: number, latencyMs: number): MethodStatCount => {
    const latency: number[] = [];
    for (let i = 0; i < calls; i++) record(latency, latencyMs);
    return {
      accountId,
      apiKeyId: KEY,
      network: 'ethereum/mainnet',
      method: 'eth_call',
      hour,
      calls,
      rpcErrors: 1,
      refused: 0,
      upstreamErrors: 0,
      latency,
    };
  };

  it('adds flushes into their hour, rolls old hours into days and forgets what is past keeping, counting nothing twice', async () => {
    const now = Date.parse('2026-06-30T12:30:00Z');
    const today = Date.parse('2026-06-30T00:00:00Z');
    const tenDaysAgo = today - 10 * DAY;
    // Two flushes of one hour (two processes), a second hour of that day, a day past keeping.
    await addMethodStats(db, [hourOf(tenDaysAgo + 3 * HOUR, 10, 2)]);
    await addMethodStats(db, [hourOf(tenDaysAgo + 3 * HOUR, 30, 2), hourOf(tenDaysAgo + 5 * HOUR, 60, 40)]);
    await addMethodStats(db, [hourOf(today - 100 * DAY, 5, 1), hourOf(today + 12 * HOUR, 7, 3)]);
    const range = { from: new Date(tenDaysAgo), to: new Date(today + DAY) };
    const before = await readMethodStats(db, accountId, range);

    // Two processes run the job at once: the hours are claimed once.
    await Promise.all([keepInsight(db, now), keepInsight(db, now)]);
    const after = await readMethodStats(db, accountId, range);
    expect(after).toEqual(before);
    expect(after[0]).toMatchObject({ calls: 107, errors: 4 });
    expect(percentile(after[0]?.latency ?? [], 0.5)).toBeCloseTo(percentile(before[0]?.latency ?? [], 0.5));
    const rows = await db
      .selectFrom('rpc_method_stats')
      .select(['period', 'period_start', 'calls'])
      .where('account_id', '=', accountId)
      .orderBy('period_start')
      .execute();
    expect(rows.map((r) => [r.period, new Date(r.period_start).toISOString(), Number(r.calls)])).toEqual([
      ['day', new Date(tenDaysAgo).toISOString(), 100],
      ['hour', new Date(today + 12 * HOUR).toISOString(), 7],
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
