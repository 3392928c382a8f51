import type { Db } from '../../db/database.ts';

/** The account's customer at the card provider, or null before it has one. */
export async function findCustomerId(db: Db, accountId: string): Promise<string | null> {
  const row = await db.selectFrom('accounts').select('customer_id').where('id', '=', accountId).executeTakeFirst();
  return row?.customer_id ?? null;
}

/** Records the account's customer unless another request already did; answers the one that stands. */
export async function recordCustomerId(db: Db, accountId: string, customerId: string): Promise<string> {
  const set = await db
    .updateTable('accounts')
    .set({ customer_id: customerId })
    .where('id', '=', accountId)
    .where('customer_id', 'is', null)
    .returning('customer_id')
    .executeTakeFirst();
  return set?.customer_id ?? (await findCustomerId(db, accountId)) ?? customerId;
}
