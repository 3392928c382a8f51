import { type RawBuilder, sql } from 'kysely';

/**
 * The ledger rule in one place, for any query that has an account id column (`a.id`,
 * `accounts.id`, ...), as decimal text:
 * - the balance is the sum of the completed transactions;
 * - the pending amount (positive) is what will be taken but is not yet posted: pending
 *   withdrawals, and metered usage the billing job has not yet charged (usage × its unit price);
 * - the available credit is the balance minus the pending amount (spec A §9).
 */
export const balanceOf = (accountId: string): RawBuilder<string> =>
  sql<string>`(select coalesce(sum(t.amount), 0) from account_transactions t
    where t.account_id = ${sql.ref(accountId)} and t.status = 'COMPLETED')`;

export const pendingOf = (accountId: string): RawBuilder<string> =>
  sql<string>`((select coalesce(-sum(t.amount), 0) from account_transactions t
      where t.account_id = ${sql.ref(accountId)} and t.status = 'PENDING' and t.amount < 0)
    + (select coalesce(sum(u.usage * u.unit_price), 0) from account_resource_usage u
      where u.account_id = ${sql.ref(accountId)} and u.status = 'PENDING'))`;

export const availableCreditOf = (accountId: string): RawBuilder<string> =>
  sql<string>`(${balanceOf(accountId)} - ${pendingOf(accountId)})`;
