import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { CARD_DEPOSIT_TYPES } from './card-deposits.store.ts';

/**
 * The ledger's rows as parts of another module's statement, where one statement must read them
 * with that module's tables (as available-credit.ts does for the balance).
 */

/** Whether the account of a query's account id column (`a.id`, ...) has any ledger row, of any status. */
export const hasLedgerRows = (accountId: string): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from account_transactions ledger_row
    where ledger_row.account_id = ${sql.ref(accountId)})`;

/** The completed card deposits (one-time or auto), as a table (`id`, `account_id`, `amount`) to select from. */
export const completedCardDeposits = (db: Db) =>
  db
    .selectFrom('account_transactions')
    .select(['id', 'account_id', 'amount'])
    .where('status', '=', 'COMPLETED')
    .where('type', 'in', [...CARD_DEPOSIT_TYPES]);
