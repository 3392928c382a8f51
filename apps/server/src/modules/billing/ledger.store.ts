import type { Transaction } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface NewTransaction {
  accountId: string;
  type: string;
  /** Decimal text, signed: deposits positive, withdrawals negative. */
  amount: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  metadata?: Record<string, unknown>;
  idempotencyKey?: string;
}

/** Appends one row to the ledger; rows are never updated in amount nor deleted. */
export async function insertTransaction(db: Db, row: NewTransaction): Promise<string> {
  const { id } = await db
    .insertInto('account_transactions')
    .values({
      account_id: row.accountId,
      type: row.type,
      amount: row.amount,
      status: row.status,
      metadata: JSON.stringify(row.metadata ?? {}),
      idempotency_key: row.idempotencyKey ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
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

/** One page of an account's transactions and how many match in all. */
export async function listTransactions(
  db: Db,
  accountId: string,
  filter: TransactionFilter,
): Promise<{ transactions: Transaction[]; totalCount: number }> {
  let base = db.selectFrom('account_transactions').where('account_id', '=', accountId);
  if (filter.from) base = base.where('created_at', '>=', filter.from);
  if (filter.until) base = base.where('created_at', '<', filter.until);
  if (filter.types) base = base.where('type', 'in', filter.types.length ? filter.types : ['']);
  // Qualified: the bare name would sort by the text alias of the select list.
  const column = filter.sortBy === 'amount' ? 'account_transactions.amount' : 'account_transactions.created_at';
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'type', sql<string>`amount::text`.as('amount'), 'status', 'metadata', 'created_at', 'updated_at'])
      .orderBy(column, filter.order)
      .orderBy('account_transactions.id', filter.order)
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    totalCount: Number(count.n),
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
