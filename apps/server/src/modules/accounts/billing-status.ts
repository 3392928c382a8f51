import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { availableCreditOf } from '../ledger/index.ts';
import { spendingCapsOf } from './spending-cap.store.ts';

/**
 * Suspension follows the ledger: an account's billing API (`is_billing_api_enabled`) is enabled
 * only while its available credit (balance minus pending withdrawals and unbilled usage) is above
 * 0. The ledger refreshes the accounts of each of its writes, usage billing and the gateway's usage
 * flush theirs; the `billing` job sweeps all accounts, settling what concurrent writes missed.
 * Returns how many accounts changed.
 */
export async function refreshBillingStatus(db: Db, accountIds?: string | string[]): Promise<number> {
  const available = availableCreditOf('accounts.id');
  let update = db
    .updateTable('accounts')
    .set({ is_billing_api_enabled: sql<boolean>`${available} > 0` })
    .where(sql<boolean>`is_billing_api_enabled <> (${available} > 0)`);
  if (accountIds !== undefined) {
    const ids = [accountIds].flat();
    if (ids.length === 0) return 0;
    update = update.where('id', 'in', ids);
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Of these accounts, the ones whose billing API is enabled (not suspended). */
export async function billingEnabledAccounts(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('accounts')
    .select('id')
    .where('id', 'in', ids)
    .where('is_billing_api_enabled', '=', true)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** What the gateway asks of accounts (its GatewayAccounts): which may be served, the suspension rule, and the spending caps. */
export const gatewayAccounts = { enabled: billingEnabledAccounts, refreshBillingStatus, spendingCaps: spendingCapsOf };
