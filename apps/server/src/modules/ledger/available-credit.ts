import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { unbilledUsageOf } from '../usage/index.ts';

/**
 * The ledger rule in one place, for any query that has an account id column (`a.id`,
 * `accounts.id`, ...), as decimal text:
 * - the balance is the sum of the completed transactions;
 * - the pending amount (positive) is what will be taken but is not yet posted: pending
 *   withdrawals, and metered usage the billing job has not yet charged (its compute units × their unit price);
 * - the available credit is the balance minus the pending amount (spec A §9).
 * The ledger's sums are kept per account by triggers, in the same transaction as its rows
 * (account_ledger_totals, migration 0011): reading them costs one row however long the ledger.
 * Unbilled usage is the usage module's (`unbilledUsageOf`).
 */
const ledgerTotal = (column: 'balance' | 'pending_withdrawals', accountId: string): RawBuilder<string> =>
  sql<string>`coalesce((select ${sql.ref(`l.${column}`)} from account_ledger_totals l
    where l.account_id = ${sql.ref(accountId)}), 0)`;

export const balanceOf = (accountId: string): RawBuilder<string> => ledgerTotal('balance', accountId);

export const pendingOf = (accountId: string): RawBuilder<string> =>
  sql<string>`(${ledgerTotal('pending_withdrawals', accountId)} + ${unbilledUsageOf(accountId)})`;

export const availableCreditOf = (accountId: string): RawBuilder<string> =>
  sql<string>`(${balanceOf(accountId)} - ${pendingOf(accountId)})`;

/** Each account's available credit (decimal text). */
export async function availableCredits(db: Db, accountIds: string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const { rows } = await sql<{ id: string; credit: string }>`select x.id, (${availableCreditOf('x.id')})::text as credit
    from unnest(${accountIds}::uuid[]) as x(id)`.execute(db);
  return new Map(rows.map((r) => [r.id, r.credit]));
}
