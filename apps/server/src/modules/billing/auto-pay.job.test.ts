import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ownerWithCard } from '../../testing/cards.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { claimDeposit, insertTransaction } from '../ledger/ledger.test-kit.ts';
import { runAutoPay } from './auto-pay.job.ts';

describe.each(testDatabases)('the auto pay job on $name', (database) => {
  const server = serverFor(database);
  const run = () =>
    runAutoPay({
      db: server().db,
      deposits: server().deps.deposits,
      mailer: server().deps.mailer,
      productName: 'EBS Console',
    });

  const autoPayOwner = async (minBalance: number, autoDepositAmount: number, number?: string) => {
    const o = await ownerWithCard(server().url, number);
    await o.c.post(
      '/api/v1.0/account/updateAccountSettings',
      { settingName: 'autoDeposit', fields: { autoDepositEnabled: true } },
      o.h,
    );
    await o.c.post(
      '/api/v1.0/account/updateAccountSettings',
      { settingName: 'autoDeposit', fields: { minBalance, autoDepositAmount } },
      o.h,
    );
    const autoDeposits = async () =>
      server()
        .db.selectFrom('account_transactions')
        .select(['status', sql<string>`amount::text`.as('amount')])
        .where('account_id', '=', o.accountId)
        .where('type', '=', 'DEPOSIT_AUTO')
        .orderBy('created_at')
        .execute();
    const balance = async () =>
      (await o.c.get<{ balance: number }>('/api/v1.0/account/details', o.h)).body.data.balance;
    return { ...o, autoDeposits, balance };
  };

  it('charges the amount when credit falls below the threshold, and again at the next crossing', async () => {
    const o = await autoPayOwner(20, 50);
    await run();
    expect(await o.autoDeposits()).toEqual([{ status: 'COMPLETED', amount: '50.000000' }]);
    await run();
    expect(await o.autoDeposits()).toHaveLength(1);
    await insertTransaction(server().db, {
      accountId: o.accountId,
      type: 'WITHDRAW_RESOURCE_USAGE',
      amount: '-45',
      status: 'COMPLETED',
    });
    await run();
    expect(await o.autoDeposits()).toHaveLength(2);
    expect(await o.balance()).toBe(55);
  });

  it('charges once per crossing even when one charge does not lift credit over the threshold', async () => {
    const o = await autoPayOwner(100, 10);
    await run();
    await run();
    await run();
    expect(await o.autoDeposits()).toHaveLength(1);
    expect(await o.balance()).toBe(10);
  });

  it('backs off after a decline and tells the owner by e-mail', async () => {
    const o = await autoPayOwner(20, 50, '4000000000009995');
    const first = await run();
    expect(first.failed).toBeGreaterThanOrEqual(1);
    expect(await o.balance()).toBe(0);
    const state = await server()
      .db.selectFrom('accounts')
      .select([
        'auto_deposit_failures',
        sql<number>`extract(epoch from auto_deposit_retry_at - now())::float8`.as('wait'),
      ])
      .where('id', '=', o.accountId)
      .executeTakeFirstOrThrow();
    expect(state.auto_deposit_failures).toBe(1);
    expect(Number(state.wait)).toBeGreaterThan(3500);
    const email = (await o.c.get<{ email: string }>('/api/v1.0/user')).body.data.email;
    const mails = (await (await fetch(`${server().url}/dev/mailbox.json?to=${email}`)).json()) as Array<{
      subject: string;
      text: string;
    }>;
    expect(mails[0]?.subject).toBe('Your EBS Console auto pay payment failed');
    expect(mails[0]?.text).toContain('Your card has insufficient funds.');

    await run();
    expect(await o.autoDeposits()).toHaveLength(1);
    await server()
      .db.updateTable('accounts')
      .set({ auto_deposit_retry_at: sql`now() - interval '1 second'` })
      .where('id', '=', o.accountId)
      .execute();
    await run();
    expect(
      (
        await server()
          .db.selectFrom('accounts')
          .select('auto_deposit_failures')
          .where('id', '=', o.accountId)
          .executeTakeFirstOrThrow()
      ).auto_deposit_failures,
    ).toBe(2);
  });

  it('charges once when runs overlap (several processes, or an admin run during a scheduled one)', async () => {
    const o = await autoPayOwner(20, 50);
    await Promise.all([run(), run(), run()]);
    expect(await o.autoDeposits()).toEqual([{ status: 'COMPLETED', amount: '50.000000' }]);
    const charges = await sql<{ n: string }>`select count(*)::text as n from processor_charges c
      join accounts a on a.customer_id = c.customer_id where a.id = ${o.accountId}`.execute(server().db);
    expect(charges.rows[0]?.n).toBe('1');
  });

  it('finishes a crossing interrupted before a settings change with the amount it started with', async () => {
    const o = await autoPayOwner(20, 50);
    const key = `autopay:${o.accountId}:interrupted`;
    await server().db.updateTable('accounts').set({ auto_deposit_key: key }).where('id', '=', o.accountId).execute();
    await claimDeposit(server().db, {
      accountId: o.accountId,
      type: 'DEPOSIT_AUTO',
      amount: '30',
      status: 'PENDING',
      idempotencyKey: key,
      metadata: { cardId: o.cardId },
    });
    const result = await run();
    expect(result.errors).toEqual([]);
    expect(await o.autoDeposits()).toEqual([{ status: 'COMPLETED', amount: '30.000000' }]);
    expect(await o.balance()).toBe(30);
  });

  it('leaves accounts with auto pay off alone', async () => {
    const o = await autoPayOwner(20, 50);
    await o.c.post(
      '/api/v1.0/account/updateAccountSettings',
      { settingName: 'autoDeposit', fields: { autoDepositEnabled: false } },
      o.h,
    );
    await run();
    expect(await o.autoDeposits()).toEqual([]);
  });
});
