import type { Db } from '../../db/database.ts';
import { accountName } from '../accounts/accounts.service.ts';
import { findUserNames } from '../identity/user-records.ts';

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

/** The names of the ticket's account and user, and the user's e-mail; throws when either is unknown. */
export async function findTicketParties(db: Db, accountId: string, userId: string): Promise<TicketParties> {
  const name = await accountName(db, accountId);
  if (name === undefined) throw new Error(`No account ${accountId}`);
  const [user] = await findUserNames(db, [userId]);
  if (!user) throw new Error(`No user ${userId}`);
  return {
    accountName: name,
    userName: `${user.givenName} ${user.familyName}`.trim(),
    userEmail: user.email,
  };
}
