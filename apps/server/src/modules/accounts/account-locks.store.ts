import type { Db } from '../../db/database.ts';

/**
 * Locks the account's row for the rest of the caller's transaction (`for update`): serialises the
 * changes another module makes to what one account holds (its cards, its keys).
 */
export async function lockAccountRow(db: Db, accountId: string): Promise<void> {
  await db.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}
