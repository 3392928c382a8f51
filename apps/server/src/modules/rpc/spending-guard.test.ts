import { RpcMessages } from '@ebs/contract';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from '../../http/rate-limit.ts';
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

describe('the monthly spending cap', () => {
  const server = serverFor(pglite, { USAGE_FLUSH_SECONDS: '60' });

  it('starts from the month’s usage in the database, counts each process’s spend in one shared total, and serves again once the cap is raised', async () => {
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
    const store = memoryRateLimiter();
    const [a, b] = [new SpendingGuard(db, store, caps, log), new SpendingGuard(db, store, caps, log)];
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
    const c = new SpendingGuard(db, store, uncapped, log);
    expect(c.refusal(accountId)).toBeNull();
    c.spent(accountId, 1_000_000 * CU);
    await c.sync();
    expect(c.refusal(accountId)).toBeNull();
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
