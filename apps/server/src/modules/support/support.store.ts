import type { Db } from '../../db/database.ts';

export interface StoredTicket {
  id: string;
  createdAt: Date;
}

export async function insertTicket(
  db: Db,
  ticket: { accountId: string; userId: string; message: string },
): Promise<StoredTicket> {
  const row = await db
    .insertInto('support_tickets')
    .values({ account_id: ticket.accountId, user_id: ticket.userId, message: ticket.message })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, createdAt: row.created_at };
}

export async function deleteTicket(db: Db, ticketId: string): Promise<void> {
  await db.deleteFrom('support_tickets').where('id', '=', ticketId).execute();
}
