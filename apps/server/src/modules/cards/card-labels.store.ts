import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * How a receipt names the card a payment used (`VISA •••• 4242`), removed cards included; undefined
 * for an id that names no card (a payment made without one, or metadata of another shape).
 */
export async function cardLabel(db: Db, cardId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('payment_cards')
    .select(['brand', 'last4'])
    .where(sql<string>`id::text`, '=', cardId)
    .executeTakeFirst();
  return row?.brand && row.last4 ? `${row.brand} •••• ${row.last4}` : undefined;
}
