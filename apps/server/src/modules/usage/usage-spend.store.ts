import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isRpcUsageOf, usagePriceOf } from './usage-price.ts';

/** What each account's usage of a day costs (its records' prices, decimal text), billed or not. */
export async function spendOn(db: Db, accountIds: string[], date: string): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('account_resource_usage as u')
    .select(['u.account_id', sql<string>`sum(${usagePriceOf('u')})::text`.as('spent')])
    .where('u.account_id', 'in', accountIds)
    .where('u.date', '=', date)
    .groupBy('u.account_id')
    .execute();
  return new Map(rows.map((r) => [r.account_id, r.spent]));
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * What each account's RPC calls of a UTC month (YYYY-MM) cost, billed or not (decimal text, the
 * unit price's 10 decimals); token forwards are left out. An account with no such usage may be
 * absent. Read from each account's records of the month by the (account, day) index, a thousand
 * accounts a query.
 */
export async function rpcSpendOfMonth(db: Db, accountIds: string[], month: string): Promise<Map<string, string>> {
  if (!MONTH.test(month)) throw new RangeError(`A month is written YYYY-MM: ${month}`);
  const first = `${month}-01`;
  const spent = new Map<string, string>();
  for (let i = 0; i < accountIds.length; i += 1000) {
    const rows = await db
      .selectFrom('account_resource_usage as u')
      .select(['u.account_id', sql<string>`sum(${usagePriceOf('u')})::text`.as('spent')])
      .where('u.account_id', 'in', accountIds.slice(i, i + 1000))
      .where('u.date', '>=', first)
      .where(sql<boolean>`u.date < (${first}::date + interval '1 month')::date`)
      .where(isRpcUsageOf('u'))
      .groupBy('u.account_id')
      .execute();
    for (const r of rows) spent.set(r.account_id, r.spent);
  }
  return spent;
}

/** Each key's requests of a day (the gateway's resources), for the accounts given. */
export async function keyRequestsOn(db: Db, accountIds: string[], date: string): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('account_resource_usage')
    .select(['api_key_id', sql<string>`sum(usage)::text`.as('usage')])
    .where('account_id', 'in', accountIds)
    .where('date', '=', date)
    .where('api_key_id', 'is not', null)
    .groupBy('api_key_id')
    .execute();
  return new Map(rows.map((r) => [r.api_key_id ?? '', Number(r.usage)]));
}
