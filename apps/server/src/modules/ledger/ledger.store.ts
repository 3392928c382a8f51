import { randomUUID } from 'node:crypto';
import type { Transaction, TransactionType } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { keysetPages, matchCount, pageRead, totalOf } from '../../db/paging.ts';
import { refreshBillingStatus } from '../accounts/index.ts';

export interface NewTransaction {
  accountId: string;
  type: TransactionType;
  /** Decimal text, signed: deposits positive, withdrawals negative. */
  amount: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  metadata?: Record<string, unknown>;
  idempotencyKey?: string;
}

/** A new ledger row as its columns. */
const columnsOf = (row: NewTransaction) => ({
  account_id: row.accountId,
  type: row.type,
  amount: row.amount,
  status: row.status,
  metadata: JSON.stringify(row.metadata ?? {}),
  idempotency_key: row.idempotencyKey ?? null,
});

/** Appends one row to the ledger; rows are never updated in amount nor deleted. */
export async function insertTransaction(db: Db, row: NewTransaction): Promise<string> {
  const { id } = await db
    .insertInto('account_transactions')
    .values(columnsOf(row))
    .returning('id')
    .executeTakeFirstOrThrow();
  await refreshBillingStatus(db, row.accountId);
  return id;
}

/**
 * Appends many rows in one statement and answers their ids in the rows' order. It leaves
 * the billing status alone: the caller refreshes it in the same transaction once the rest of its
 * change is written (usage billing closes the records it charged first).
 */
export async function appendTransactions(db: Db, rows: NewTransaction[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const ids = rows.map(() => randomUUID());
  await db
    .insertInto('account_transactions')
    .values(rows.map((row, i) => ({ id: ids[i], ...columnsOf(row) })))
    .execute();
  return ids;
}

export interface TransactionFilter {
  limit: number;
  offset: number;
  /** Inclusive bounds as instants. */
  from?: Date;
  until?: Date;
  types?: string[];
  sortBy: 'createdAt' | 'amount';
  order: 'asc' | 'desc';
}

/** The rows of an account's transaction history, kept with the ledger (account_ledger_totals). */
async function listedCount(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('account_ledger_totals')
    .select(sql<string>`listed_count::text`.as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The rows of an account's history a filter keeps. */
function listedRows(db: Db, accountId: string, filter: Omit<TransactionFilter, 'limit' | 'offset'>) {
  // A failed payment posted nothing: it stays in the table for audit, out of the history.
  let base = db.selectFrom('account_transactions').where('account_id', '=', accountId).where('status', '!=', 'FAILED');
  if (filter.from) base = base.where('created_at', '>=', filter.from);
  if (filter.until) base = base.where('created_at', '<', filter.until);
  if (filter.types) base = base.where('type', 'in', filter.types.length ? filter.types : ['']);
  return base;
}

/** Rows of the transactions' CSV read at a time. */
export const EXPORT_PAGE_ROWS = 1000;

/**
 * Every transaction a filter keeps, in the list's order, a page at a time: each page read after
 * the last row of the one before (by the sort column and the id), so the millionth row costs what
 * the first does. Amounts stay decimal text.
 */
export function transactionPages(db: Db, accountId: string, filter: Omit<TransactionFilter, 'limit' | 'offset'>) {
  const byAmount = filter.sortBy === 'amount';
  const column = byAmount ? sql.ref('account_transactions.amount') : sql.ref('account_transactions.created_at');
  const direction = filter.order === 'asc' ? sql`>` : sql`<`;
  type Row = {
    id: string;
    type: string;
    amount: string;
    status: string;
    metadata: unknown;
    created_at: Date;
    at: string;
  };
  return keysetPages<Row>(async (after) => {
    let rows = listedRows(db, accountId, filter);
    if (after) {
      // The instant as the database wrote it (microseconds): a JS Date would cut it to milliseconds.
      const last = byAmount ? sql`${after.amount}::numeric` : sql`${after.at}::timestamptz`;
      rows = rows.where(sql<boolean>`(${column}, account_transactions.id) ${direction} (${last}, ${after.id}::uuid)`);
    }
    return rows
      .select([
        'id',
        'type',
        sql<string>`amount::text`.as('amount'),
        'status',
        'metadata',
        'created_at',
        sql<string>`created_at::text`.as('at'),
      ])
      .orderBy(column, filter.order)
      .orderBy('account_transactions.id', filter.order)
      .limit(EXPORT_PAGE_ROWS)
      .execute();
  }, EXPORT_PAGE_ROWS);
}

/**
 * One page of an account's transactions and how many match in all. The whole history's count is
 * kept with the ledger, and its page is read from the nearer end (db/paging.ts) in the index's
 * order, so neither the first nor the last page grows with the account. A filtered list (a month,
 * some types) is counted in the same statement as its page.
 */
export async function listTransactions(
  db: Db,
  accountId: string,
  filter: TransactionFilter,
): Promise<{ transactions: Transaction[]; totalCount: number }> {
  const base = listedRows(db, accountId, filter);
  const filtered = Boolean(filter.from || filter.until || filter.types);
  const kept = filtered ? undefined : await listedCount(db, accountId);
  const read = pageRead(kept, filter.offset, filter.limit, filter.order);
  if (read.limit === 0) return { totalCount: kept ?? 0, transactions: [] };
  // Qualified: the bare name would sort by the text alias of the select list.
  const column = filter.sortBy === 'amount' ? 'account_transactions.amount' : 'account_transactions.created_at';
  const rows = await base
    .select([
      'id',
      'type',
      sql<string>`amount::text`.as('amount'),
      'status',
      'metadata',
      'created_at',
      'updated_at',
      matchCount(filtered).as('total'),
    ])
    .orderBy(column, read.order)
    .orderBy('account_transactions.id', read.order)
    .limit(read.limit)
    .offset(read.offset)
    .execute();
  if (read.reversed) rows.reverse();
  const totalCount = await totalOf(kept, rows, filter.offset, async () =>
    Number((await base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n),
  );
  return {
    totalCount,
    transactions: rows.map((r) => ({
      id: r.id,
      type: r.type,
      amount: Number(r.amount),
      status: r.status,
      metadata: (r.metadata ?? {}) as Transaction['metadata'],
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    })),
  };
}

export interface ClaimedDeposit {
  id: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  amount: string;
  metadata: Record<string, unknown>;
  /** True when this call created the row; false when an earlier request with the key did. */
  created: boolean;
}

/** Appends a PENDING deposit under its idempotency key, or returns the row an earlier request made. */
export async function claimDeposit(db: Db, row: NewTransaction & { idempotencyKey: string }): Promise<ClaimedDeposit> {
  const inserted = await db
    .insertInto('account_transactions')
    .values({
      account_id: row.accountId,
      type: row.type,
      amount: row.amount,
      status: 'PENDING',
      metadata: JSON.stringify(row.metadata ?? {}),
      idempotency_key: row.idempotencyKey,
    })
    .onConflict((c) => c.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  const found = await db
    .selectFrom('account_transactions')
    .select(['id', 'status', sql<string>`amount::text`.as('amount'), 'metadata'])
    .where('idempotency_key', '=', row.idempotencyKey)
    .executeTakeFirstOrThrow();
  return { ...found, metadata: (found.metadata ?? {}) as Record<string, unknown>, created: inserted !== undefined };
}

/**
 * Settles a row: COMPLETED posts a PENDING row to the balance (or a FAILED one whose charge turned
 * out to have succeeded: a FAILED row never counted); FAILED only ends a PENDING row.
 */
export async function settleTransaction(
  db: Db,
  id: string,
  status: 'COMPLETED' | 'FAILED',
  metadata: Record<string, unknown>,
): Promise<void> {
  const settled = await db
    .updateTable('account_transactions')
    .set({
      status,
      metadata: sql`metadata || ${JSON.stringify(metadata)}::jsonb`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('status', 'in', status === 'COMPLETED' ? ['PENDING', 'FAILED'] : ['PENDING'])
    .returning('account_id')
    .executeTakeFirst();
  if (settled) await refreshBillingStatus(db, settled.account_id);
}

export async function findLedgerRow(db: Db, id: string) {
  const row = await db
    .selectFrom('account_transactions')
    .select(['id', 'status', sql<string>`amount::text`.as('amount'), 'metadata'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { ...row, metadata: (row.metadata ?? {}) as Record<string, unknown> };
}

/** Deposits still PENDING after a while: a process stopped between the charge and the ledger write. */
export async function stalePendingDeposits(db: Db, olderThanSeconds: number) {
  return db
    .selectFrom('account_transactions')
    .select(['id', 'idempotency_key', sql<number>`extract(epoch from now() - created_at)::float8`.as('age')])
    .where('status', '=', 'PENDING')
    .where('type', 'in', ['DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO'])
    .where('idempotency_key', 'is not', null)
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
    .execute();
}

/** A completed transaction of the account, as its receipt shows it. */
export async function findCompletedTransaction(db: Db, accountId: string, transactionId: string) {
  const row = await db
    .selectFrom('account_transactions')
    .select(['id', 'type', sql<string>`amount::text`.as('amount'), 'updated_at', 'metadata'])
    .where('id', '=', transactionId)
    .where('account_id', '=', accountId)
    .where('status', '=', 'COMPLETED')
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      type: row.type,
      amount: row.amount,
      updatedAt: row.updated_at,
      metadata: (row.metadata ?? {}) as Record<string, unknown>,
    }
  );
}

/** The account's balance (decimal text) from its completed transactions made before the instant. */
export async function balanceBefore(db: Db, accountId: string, instant: Date): Promise<string> {
  const row = await db
    .selectFrom('account_transactions')
    .select(sql<string>`coalesce(sum(amount), 0)::text`.as('balance'))
    .where('account_id', '=', accountId)
    .where('status', '=', 'COMPLETED')
    .where('created_at', '<', instant)
    .executeTakeFirst();
  return row?.balance ?? '0';
}

/** Every account's ledger summed: the balances, the pending withdrawals, the accounts (the operator's metrics). */
export async function ledgerTotals(db: Db): Promise<{ balance: number; pendingWithdrawals: number; accounts: number }> {
  const row = await db
    .selectFrom('account_ledger_totals')
    .select([
      sql<string>`coalesce(sum(balance), 0)::text`.as('balance'),
      sql<string>`coalesce(sum(pending_withdrawals), 0)::text`.as('pending'),
      sql<string>`count(*)::text`.as('accounts'),
    ])
    .executeTakeFirstOrThrow();
  return { balance: Number(row.balance), pendingWithdrawals: Number(row.pending), accounts: Number(row.accounts) };
}
