import type { SpendingCapSetting } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * The spending cap columns of `accounts` (Billing): the monthly cap the gateway enforces on RPC
 * usage, and Auto Pay's monthly limit. Both are numeric(12, 2), read as text with 2 decimals.
 */

const capColumns = [
  sql<string | null>`monthly_cap_usd::text`.as('monthly_cap_usd'),
  sql<string | null>`auto_pay_monthly_max_usd::text`.as('auto_pay_monthly_max_usd'),
] as const;

const toSetting = (row: { monthly_cap_usd: string | null; auto_pay_monthly_max_usd: string | null }) => ({
  monthlyCapUsd: row.monthly_cap_usd,
  autoPayMonthlyMaxUsd: row.auto_pay_monthly_max_usd,
});

/** The account's spending cap setting, or undefined when there is no such account. */
export async function findSpendingCap(db: Db, accountId: string): Promise<SpendingCapSetting | undefined> {
  const row = await db.selectFrom('accounts').select(capColumns).where('id', '=', accountId).executeTakeFirst();
  return row && toSetting(row);
}

/** Saves the values given (null clears one, a missing one is kept) in one statement; answers the setting as saved. */
export async function updateSpendingCap(
  db: Db,
  accountId: string,
  change: Partial<SpendingCapSetting>,
): Promise<SpendingCapSetting | undefined> {
  const row = await db
    .updateTable('accounts')
    .set({
      ...(change.monthlyCapUsd === undefined ? {} : { monthly_cap_usd: change.monthlyCapUsd }),
      ...(change.autoPayMonthlyMaxUsd === undefined ? {} : { auto_pay_monthly_max_usd: change.autoPayMonthlyMaxUsd }),
    })
    .where('id', '=', accountId)
    .returning(capColumns)
    .executeTakeFirst();
  return row && toSetting(row);
}

/**
 * Of these accounts, those with a monthly cap, and the cap ("25.00"): one read by primary key, the
 * ids sent as one array so that every call is the same statement whatever their number.
 */
export async function spendingCapsOf(db: Db, accountIds: string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('accounts')
    .select(['id', sql<string>`monthly_cap_usd::text`.as('cap')])
    .where(sql<boolean>`id = any(${accountIds}::uuid[])`)
    .where('monthly_cap_usd', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.id, r.cap]));
}

/** Every account with a monthly cap, and the cap (read by the partial index on capped accounts). */
export async function listSpendingCaps(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('accounts')
    .select(['id', sql<string>`monthly_cap_usd::text`.as('cap')])
    .where('monthly_cap_usd', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.id, r.cap]));
}
