import { RpcMessages } from '@ebs/contract';
import { Redis } from 'ioredis';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from '../../http/rate-limit.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey } from '../../testing/keys.ts';
import { serverFor } from '../../testing/server.ts';
import { addUsage } from '../usage/usage.test-kit.ts';
import { priceUnitsOf } from './price-book.ts';
import { SpendingGuard } from './spending-guard.ts';

const RESOURCE = 'RPC_API_ETHEREUM_MAINNET';
/** One compute unit at the default $20 per million. */
const CU = priceUnitsOf('0.00002');
const log = pino({ level: 'silent' });
const REDIS_URL = process.env.TEST_REDIS_URL;

/** The store of the month's totals two server processes share: one process's memory, or Redis (two clients). */
const stores: Array<{ name: string; pair(): { stores: [RateLimiter, RateLimiter]; close(): void } }> = [
  {
    name: 'memory',
    pair() {
      const store = memoryRateLimiter();
      return { stores: [store, store], close: () => {} };
    },
  },
  ...(REDIS_URL
    ? [
        {
          name: 'Redis',
          pair() {
            const clients = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
            const prefix = `ebs:test:${Math.random().toString(36).slice(2)}:`;
            const [a, b] = clients.map((r) => redisRateLimiter(r, log, prefix)) as [RateLimiter, RateLimiter];
            return {
              stores: [a, b] as [RateLimiter, RateLimiter],
              close: () => {
                for (const r of clients) r.disconnect();
              },
            };
          },
        },
      ]
    : []),
];

describe('the monthly spending cap', () => {
  const server = serverFor(pglite, { USAGE_FLUSH_SECONDS: '60' });

  it.each(stores)(
    'starts from the month’s usage in the database, counts each process’s spend in one total shared in $name, and serves again once the cap is raised',
    async ({ pair }) => {
      const shared = pair();
      try {
        await sharedTotal(shared.stores);
      } finally {
        shared.close();
      }
    },
  );

  const sharedTotal = async ([first, second]: [RateLimiter, RateLimiter]) => {
    const { db } = server();
    const { accountId, keyId } = await accountWithKey(server().url, db, '10');
    const today = new Date().toISOString().slice(0, 10);
    // 300 CU this month already: $0.006 of a $0.01 cap.
    await addUsage(db, [
      { accountId, apiKeyId: keyId, resource: RESOURCE, date: today, usage: 300, computeUnits: 300 },
    ]);
    let cap = '0.01';
    const caps = async (_db: unknown, ids: string[]) => new Map(ids.includes(accountId) ? [[accountId, cap]] : []);
    // Two processes: one store of totals between them.
    const [a, b] = [new SpendingGuard(db, first, caps, log), new SpendingGuard(db, second, caps, log)];
    const reached = RpcMessages.spendingCapReached('0.01');

    expect(a.refusal(accountId)).toBeNull();
    await a.sync();
    a.spent(accountId, 150 * CU);
    expect(a.refusal(accountId)).toBeNull();
    await a.sync();
    expect(b.refusal(accountId)).toBeNull();
    await b.sync();
    // $0.009 so far; 50 CU more in the second process reach the cap there at once...
    b.spent(accountId, 50 * CU);
    expect(b.refusal(accountId)).toBe(reached);
    // ...and in the first at its next read of the shared total.
    expect(a.refusal(accountId)).toBeNull();
    await b.sync();
    await a.sync();
    expect(a.refusal(accountId)).toBe(reached);

    cap = '0.02';
    await Promise.all([a.sync(), b.sync()]);
    expect([a.refusal(accountId), b.refusal(accountId)]).toEqual([null, null]);

    // No cap: nothing refused, whatever is spent.
    cap = '';
    const uncapped = async () => new Map<string, string>();
    const c = new SpendingGuard(db, first, uncapped, log);
    expect(c.refusal(accountId)).toBeNull();
    c.spent(accountId, 1_000_000 * CU);
    await c.sync();
    expect(c.refusal(accountId)).toBeNull();
  };

  it('keeps the month’s total through a store that lost it or cannot be reached, and through a cap cleared and set again', async () => {
    const { db } = server();
    const { accountId, keyId } = await accountWithKey(server().url, db, '10');
    const today = new Date().toISOString().slice(0, 10);
    const used = (computeUnits: number) =>
      addUsage(db, [
        { accountId, apiKeyId: keyId, resource: RESOURCE, date: today, usage: computeUnits, computeUnits },
      ]);
    let cap = '0.01';
    const caps = async () => new Map(cap ? [[accountId, cap]] : []);
    // A store that can be emptied (a Redis restarted without its data) or taken away.
    let store = memoryRateLimiter();
    let away = false;
    const flaky: RateLimiter = { ...store, total: (...args) => (away ? Promise.resolve(null) : store.total(...args)) };
    const guard = new SpendingGuard(db, flaky, caps, log);
    const reached = RpcMessages.spendingCapReached('0.01');

    guard.refusal(accountId);
    await guard.sync();
    guard.spent(accountId, 600 * CU);
    expect(guard.refusal(accountId)).toBe(reached);
    store = memoryRateLimiter();
    await guard.sync();
    expect(guard.refusal(accountId)).toBe(reached);

    // Cleared, spent without a cap (the database has it), then set again: refused at once.
    cap = '';
    await guard.sync();
    expect(guard.refusal(accountId)).toBeNull();
    await used(1200);
    cap = '0.02';
    await guard.sync();
    expect(guard.refusal(accountId)).toBe(RpcMessages.spendingCapReached('0.02'));

    // A process that starts while the store is away: the database's figure still counts.
    away = true;
    const fresh = new SpendingGuard(db, flaky, caps, log);
    fresh.refusal(accountId);
    await fresh.sync();
    expect(fresh.refusal(accountId)).toBe(RpcMessages.spendingCapReached('0.02'));
  });

  it('starts each month from that month’s usage', async () => {
    const { db } = server();
    const { accountId, keyId } = await accountWithKey(server().url, db, '10');
    const today = new Date().toISOString().slice(0, 10);
    await addUsage(db, [
      { accountId, apiKeyId: keyId, resource: RESOURCE, date: today, usage: 500, computeUnits: 500 },
    ]);
    const caps = async () => new Map([[accountId, '0.01']]);
    let now = Date.now();
    const guard = new SpendingGuard(db, memoryRateLimiter(), caps, log, () => now);
    guard.refusal(accountId);
    await guard.sync();
    expect(guard.refusal(accountId)).toBe(RpcMessages.spendingCapReached('0.01'));
    // The first of next month.
    const next = new Date(now);
    now = Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1, 0, 0, 1);
    await guard.sync();
    expect(guard.refusal(accountId)).toBeNull();
  });
});
