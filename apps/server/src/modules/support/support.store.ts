import type { Db } from '../../db/database.ts';

export interface StoredTicket {
  id: string;
  createdAt: Date;
}

/** Who a ticket is from, as the support e-mail names them. */
export interface TicketParties {
  accountName: string;
  userName: string;
  userEmail: string;
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

export async function findTicketParties(db: Db, accountId: string, userId: string): Promise<TicketParties> {
  const account = await db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirstOrThrow();
  const user = await db
    .selectFrom('users')
    .select(['email', 'given_name', 'family_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    accountName: account.name,
    userName: `${user.given_name} ${user.family_name}`.trim(),
    userEmail: user.email,
  };
}
