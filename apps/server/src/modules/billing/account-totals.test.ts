import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { findAccountDetails, insertAccount } from '../accounts/accounts.test-kit.ts';
import { insertUser } from '../identity/identity.test-kit.ts';
import { insertKey } from '../keys/keys.test-kit.ts';
import {
  insertTransaction,
  listTransactions,
  settleTransaction,
  type TransactionFilter,
} from '../ledger/ledger.test-kit.ts';
import { addUsage, listUsage } from '../usage/usage.test-kit.ts';

const page = (offset: number, limit: number, extra: Partial<TransactionFilter> = {}): TransactionFilter => ({
  limit,
  offset,
  sortBy: 'createdAt',
  order: 'desc',
  ...extra,
});

describe.each(testDatabases)('account totals and long lists on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let n = 0;
  const newAccount = async () => {
    const owner = await insertUser(db, {
      email: `totals-${++n}@example.com`,
      givenName: 'A',
      familyName: 'B',
      passwordHash: 'h',
      referralCode: null,
    });
    const account = await insertAccount(db, {
      name: `totals ${n}`,
      customerId: null,
      ownerId: owner,
      roleName: 'OWNER',
    });
    return { owner, accountId: account.id };
  };
  const totals = async (accountId: string) => {
    const { rows } = await sql<{ listed: string; balance: string; pending: string; records: string }>`select
      (select listed_count from account_ledger_totals where account_id = ${accountId})::text as listed,
      (select balance from account_ledger_totals where account_id = ${accountId})::text as balance,
      (select pending_withdrawals from account_ledger_totals where account_id = ${accountId})::text as pending,
      (select record_count from account_usage_totals where account_id = ${accountId})::text as records`.execute(db);
    const row = rows[0];
    return {
      listed: Number(row?.listed),
      balance: Number(row?.balance),
      pending: Number(row?.pending),
      records: Number(row?.records),
    };
  };

  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close?.());

  it('keeps the ledger totals through inserts, settlements and a refused payment', async () => {
    const { owner, accountId } = await newAccount();
    await insertTransaction(db, { accountId, type: 'ADMIN_MANUAL_DEPOSIT', amount: '10.5', status: 'COMPLETED' });
    const pending = await insertTransaction(db, {
      accountId,
      type: 'DEPOSIT_ONE_TIME',
      amount: '20',
      status: 'PENDING',
    });
    const declined = await insertTransaction(db, {
      accountId,
      type: 'DEPOSIT_ONE_TIME',
      amount: '30',
      status: 'PENDING',
    });
    const owed = await insertTransaction(db, {
      accountId,
      type: 'WITHDRAW_RESOURCE_USAGE',
      amount: '-0.25',
      status: 'PENDING',
    });
    expect(await totals(accountId)).toMatchObject({ listed: 4, balance: 10.5, pending: 0.25 });
    await settleTransaction(db, pending, 'COMPLETED', { receiptUrl: 'https://example.com/r' });
    await settleTransaction(db, declined, 'FAILED', { failure: 'declined' });
    await settleTransaction(db, owed, 'COMPLETED', {});
    expect(await totals(accountId)).toMatchObject({ listed: 3, balance: 30.25, pending: 0 });
    // A payment found to have succeeded after all is posted from FAILED.
    await settleTransaction(db, declined, 'COMPLETED', {});
    expect(await totals(accountId)).toMatchObject({ listed: 4, balance: 60.25, pending: 0 });
    expect(await findAccountDetails(db, accountId, owner)).toMatchObject({ balance: 60.25, amountPending: 0 });
    expect((await listTransactions(db, accountId, page(0, 10))).totalCount).toBe(4);
  });

  it('rebuilds the same totals from the rows', async () => {
    const { accountId } = await newAccount();
    await insertTransaction(db, { accountId, type: 'ADMIN_MANUAL_DEPOSIT', amount: '3', status: 'COMPLETED' });
    await addUsage(db, [
      { accountId, apiKeyId: null, resource: 'RPC_API_ETHEREUM_MAINNET', date: '2026-01-02', usage: 7 },
    ]);
    const kept = await totals(accountId);
    await sql`select account_totals_recount()`.execute(db);
    expect(await totals(accountId)).toEqual(kept);
    expect(kept).toMatchObject({ listed: 1, balance: 3, records: 1 });
  });

  it('answers every page of the history alike from either end', async () => {
    const { accountId } = await newAccount();
    for (let i = 0; i < 23; i++) {
      await insertTransaction(db, {
        accountId,
        type: i % 3 ? 'DEPOSIT_AUTO' : 'ADMIN_MANUAL_DEPOSIT',
        amount: String(1 + (i % 4)),
        status: i === 5 ? 'FAILED' : 'COMPLETED',
      });
    }
    for (const extra of [{}, { order: 'asc' as const }, { sortBy: 'amount' as const }, { types: ['DEPOSIT_AUTO'] }]) {
      const all = await listTransactions(db, accountId, page(0, 1000, extra));
      const ids = all.transactions.map((t) => t.id);
      const paged: string[] = [];
      for (let offset = 0; offset < all.totalCount + 4; offset += 4) {
        const one = await listTransactions(db, accountId, page(offset, 4, extra));
        expect(one.totalCount).toBe(all.totalCount);
        paged.push(...one.transactions.map((t) => t.id));
      }
      expect(paged).toEqual(ids);
    }
    const pastTheEnd = await listTransactions(db, accountId, page(100, 4, { types: ['DEPOSIT_AUTO'] }));
    expect(pastTheEnd).toEqual({ totalCount: 14, transactions: [] });
  });

  it('counts usage records as they are added and pages them from either end, ties broken by id', async () => {
    const { owner, accountId } = await newAccount();
    const keys: string[] = [];
    for (let k = 0; k < 3; k++) {
      keys.push((await insertKey(db, { accountId, name: `k${k}`, keyHash: `h${n}-${k}`, createdBy: owner })).id);
    }
    // One flush: the records of one day and resource share their creation time.
    await addUsage(
      db,
      ['2026-03-01', '2026-03-02', '2026-03-03'].flatMap((date) =>
        keys.flatMap((apiKeyId) =>
          ['RPC_API_ETHEREUM_MAINNET', 'RPC_API_POLYGON_MAINNET'].map((resource) => ({
            accountId,
            apiKeyId,
            resource,
            date,
            usage: 5,
          })),
        ),
      ),
    );
    // Adding to open records adds no record.
    await addUsage(db, [
      { accountId, apiKeyId: keys[0] ?? null, resource: 'RPC_API_ETHEREUM_MAINNET', date: '2026-03-01', usage: 1 },
    ]);
    expect((await totals(accountId)).records).toBe(18);
    for (const order of ['asc', 'desc'] as const) {
      const all = await listUsage(db, accountId, { limit: 1000, offset: 0, order });
      expect(all.totalCount).toBe(18);
      const paged: string[] = [];
      for (let offset = 0; offset < 18; offset += 5) {
        paged.push(
          ...(await listUsage(db, accountId, { limit: 5, offset, order })).accountResourceUsage.map((r) => r.id),
        );
      }
      expect(paged).toEqual(all.accountResourceUsage.map((r) => r.id));
      expect(new Set(paged).size).toBe(18);
    }
    const filtered = await listUsage(db, accountId, { limit: 4, offset: 4, order: 'asc', from: '2026-03-02' });
    expect(filtered.totalCount).toBe(12);
    expect(filtered.accountResourceUsage.map((r) => r.date)).toEqual([
      '2026-03-02',
      '2026-03-02',
      '2026-03-03',
      '2026-03-03',
    ]);
    const pastTheEnd = await listUsage(db, accountId, { limit: 4, offset: 40, order: 'asc', from: '2026-03-02' });
    expect(pastTheEnd).toEqual({ totalCount: 12, accountResourceUsage: [] });
  });
});
