import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ownerWithCard } from '../../testing/cards.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { claimDeposit, insertTransaction } from '../ledger/ledger.test-kit.ts';
import { runAutoPay } from './auto-pay.job.ts';

describe.each(testDatabases)('the auto pay monthly limit on $name', (database) => {
  const server = serverFor(database);
  const logged: string[] = [];
  const run = () =>
    runAutoPay({
      db: server().db,
      deposits: server().deps.deposits,
      mailer: server().deps.mailer,
      productName: 'EBS Console',
      log: { info: (_fields, message) => logged.push(message) },
    });

  /** An owner whose auto pay deposits `amount` below `minBalance`, at most `monthlyMax` a month. */
  const autoPayOwner = async (minBalance: number, amount: number, monthlyMax: string) => {
    const o = await ownerWithCard(server().url);
    const settings = (body: unknown) => o.c.post('/api/v1.0/account/updateAccountSettings', body, o.h);
    await settings({ settingName: 'autoDeposit', fields: { autoDepositEnabled: true } });
    await settings({ settingName: 'autoDeposit', fields: { minBalance, autoDepositAmount: amount } });
    const limit = (max: string | null) =>
      settings({ settingName: 'spendingCap', fields: { autoPayMonthlyMaxUsd: max } });
    expect((await limit(monthlyMax)).status).toBe(200);
    const autoDeposits = async () =>
      server()
        .db.selectFrom('account_transactions')
        .select(['status', sql<string>`amount::text`.as('amount')])
        .where('account_id', '=', o.accountId)
        .where('type', '=', 'DEPOSIT_AUTO')
        .where('created_at', '>=', sql<Date>`date_trunc('month', now(), 'UTC')`)
        .orderBy('created_at')
        .execute();
    const state = () =>
      server()
        .db.selectFrom('accounts')
        .select([
          'auto_deposit_failures',
          'auto_deposit_armed',
          sql<number | null>`extract(epoch from auto_deposit_retry_at - now())::float8`.as('wait'),
        ])
        .where('id', '=', o.accountId)
        .executeTakeFirstOrThrow();
    /** As if the wait were over. */
    const waitOver = () =>
      server()
        .db.updateTable('accounts')
        .set({ auto_deposit_retry_at: sql`now() - interval '1 second'` })
        .where('id', '=', o.accountId)
        .execute();
    const spend = (amount: string) =>
      insertTransaction(server().db, {
        accountId: o.accountId,
        type: 'WITHDRAW_RESOURCE_USAGE',
        amount,
        status: 'COMPLETED',
      });
    return { ...o, limit, autoDeposits, state, waitOver, spend };
  };

  it('leaves out a charge that would pass the limit, counts no failure, looks again within the hour, and charges once it is raised', async () => {
    const o = await autoPayOwner(20, 50, '120');
    // Each charge, then a run that finds credit back over the threshold and arms the next crossing.
    await run();
    await run();
    await o.spend('-45');
    await run();
    await run();
    expect(await o.autoDeposits()).toEqual([
      { status: 'COMPLETED', amount: '50.000000' },
      { status: 'COMPLETED', amount: '50.000000' },
    ]);

    await o.spend('-50');
    logged.length = 0;
    const limited = await run();
    expect([limited.charged, limited.failed, limited.errors]).toEqual([0, 0, []]);
    expect(limited.limited.filter((l) => l.startsWith(o.accountId))).toEqual([
      `${o.accountId}: 50 USD would bring this month's automatic deposits (100 USD) past the Auto Pay monthly limit of 120 USD`,
    ]);
    expect(logged).toEqual([expect.stringMatching(/^auto pay charge left out: 50 USD would bring/)]);
    expect(await o.autoDeposits()).toHaveLength(2);
    const state = await o.state();
    expect([state.auto_deposit_failures, state.auto_deposit_armed]).toEqual([0, true]);
    expect(Number(state.wait)).toBeGreaterThan(0);
    expect(Number(state.wait)).toBeLessThanOrEqual(3600);

    // The next runs leave it alone until the wait is over: no charge, no log line a minute.
    logged.length = 0;
    await run();
    await run();
    expect(logged).toEqual([]);

    await o.limit('150');
    await o.waitOver();
    const raised = await run();
    expect(raised.limited.filter((l) => l.startsWith(o.accountId))).toEqual([]);
    expect(await o.autoDeposits()).toHaveLength(3);
  });

  it('counts this month’s pending automatic deposits, not declined ones nor last month’s', async () => {
    const o = await autoPayOwner(20, 50, '100');
    const { db } = server();
    await insertTransaction(db, { accountId: o.accountId, type: 'DEPOSIT_AUTO', amount: '60', status: 'PENDING' });
    await insertTransaction(db, { accountId: o.accountId, type: 'DEPOSIT_AUTO', amount: '500', status: 'FAILED' });
    const lastMonth = await insertTransaction(db, {
      accountId: o.accountId,
      type: 'DEPOSIT_AUTO',
      amount: '70',
      status: 'COMPLETED',
    });
    await db
      .updateTable('account_transactions')
      .set({ created_at: sql`date_trunc('month', now(), 'UTC') - interval '1 day'` })
      .where('id', '=', lastMonth)
      .execute();
    await o.spend('-70');

    expect((await run()).limited.filter((l) => l.startsWith(o.accountId))).toHaveLength(1);
    await o.limit('110');
    await o.waitOver();
    await run();
    expect((await o.autoDeposits()).map((d) => [d.status, d.amount])).toEqual([
      ['PENDING', '60.000000'],
      ['FAILED', '500.000000'],
      ['COMPLETED', '50.000000'],
    ]);
  });

  it('finishes a crossing already under way though it passes the limit: its charge may have been made', async () => {
    const o = await autoPayOwner(20, 50, '10');
    const key = `autopay:${o.accountId}:under-way`;
    await server().db.updateTable('accounts').set({ auto_deposit_key: key }).where('id', '=', o.accountId).execute();
    await claimDeposit(server().db, {
      accountId: o.accountId,
      type: 'DEPOSIT_AUTO',
      amount: '50',
      status: 'PENDING',
      idempotencyKey: key,
      metadata: { cardId: o.cardId },
    });
    const result = await run();
    expect([result.errors, result.limited.filter((l) => l.startsWith(o.accountId))]).toEqual([[], []]);
    expect(await o.autoDeposits()).toEqual([{ status: 'COMPLETED', amount: '50.000000' }]);
  });

  it('deposits without a limit once it is cleared', async () => {
    const o = await autoPayOwner(20, 50, '10');
    await run();
    expect(await o.autoDeposits()).toEqual([]);
    await o.limit(null);
    await o.waitOver();
    await run();
    expect(await o.autoDeposits()).toEqual([{ status: 'COMPLETED', amount: '50.000000' }]);
  });
});
