import type { Db } from '../../db/database.ts';

/** Records a provider's event as taken; false when it was taken before (a redelivery). */
export async function claimProviderEvent(db: Db, id: string, type: string): Promise<boolean> {
  const row = await db
    .insertInto('card_provider_events')
    .values({ id, type })
    .onConflict((c) => c.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
