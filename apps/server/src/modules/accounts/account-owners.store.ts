import type { Db } from '../../db/database.ts';
import { ledgerBalance } from './accounts.store.ts';

/** An account as the operator's list shows it: its owner by id (identity has their e-mail). */
export interface OperatorAccountRow {
  id: string;
  name: string;
  ownerId: string;
  isBillingApiEnabled: boolean;
  /** The ledger's balance, as decimal text. */
  balance: string;
}

/** An account's name and the user who owns it (who created it). */
export interface AccountOwner {
  name: string;
  ownerId: string;
}

/** Every account (drafts included), oldest first, with its owner's id, status and balance. */
export async function listAccountsWithOwners(db: Db): Promise<OperatorAccountRow[]> {
  const rows = await db
    .selectFrom('accounts as a')
    .select(['a.id', 'a.name', 'a.created_by', 'a.is_billing_api_enabled', ledgerBalance().as('balance')])
    .orderBy('a.created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    ownerId: r.created_by,
    isBillingApiEnabled: r.is_billing_api_enabled,
    balance: r.balance,
  }));
}

/** The account's name and owner; undefined for no such account. */
export async function findAccountOwner(db: Db, accountId: string): Promise<AccountOwner | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['name', 'created_by'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row && { name: row.name, ownerId: row.created_by };
}
