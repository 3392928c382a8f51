import type { Db } from '../../db/database.ts';

/** The account's name, for documents that carry it (receipts, statements, support tickets). */
export async function accountName(db: Db, accountId: string): Promise<string | undefined> {
  const row = await db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
  return row?.name;
}
