import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** SQL of account access: members (account_members) and pending invitations (account_invitations). */

export interface Member {
  userId: string;
  email: string;
  roleName: string;
}

/** A user who has confirmed their e-mail; an unconfirmed sign-up is invited instead, like a stranger. */
export async function findConfirmedUserByEmail(db: Db, email: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
}

export async function isMemberByEmail(db: Db, accountId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('account_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.user_id')
    .where('m.account_id', '=', accountId)
    .where('u.email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}

/** The e-mail of a user who has confirmed it; an unconfirmed one takes up no invitation. */
export async function findConfirmedEmail(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return row?.email;
}

export async function findMember(db: Db, accountId: string, userId: string): Promise<Member | undefined> {
  const row = await db
    .selectFrom('account_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'm.role_name'])
    .where('m.account_id', '=', accountId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  return row && { userId: row.user_id, email: row.email, roleName: row.role_name };
}

/** False when the user is already a member (whatever their role). */
export async function insertMember(db: Db, accountId: string, userId: string, roleName: string): Promise<boolean> {
  const inserted = await db
    .insertInto('account_members')
    .values({ account_id: accountId, user_id: userId, role_name: roleName })
    .onConflict((c) => c.columns(['account_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteMember(db: Db, accountId: string, userId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('account_members')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** False when the e-mail is already invited to the account. */
export async function insertInvitation(
  db: Db,
  invitation: { accountId: string; email: string; roleName: string; invitedBy: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('account_invitations')
    .values({
      account_id: invitation.accountId,
      email: invitation.email,
      role_name: invitation.roleName,
      invited_by: invitation.invitedBy,
    })
    .onConflict((c) => c.columns(['account_id', 'email']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteInvitation(db: Db, accountId: string, invitationId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('account_invitations')
    .where('account_id', '=', accountId)
    .where('id', '=', invitationId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/**
 * The user whose e-mail was invited joins every account that invited it, with the invited role;
 * the invitations are used up. Run where the e-mail has just been proven.
 */
export async function acceptInvitations(db: Db, userId: string, email: string): Promise<void> {
  await db
    .insertInto('account_members')
    .columns(['account_id', 'user_id', 'role_name'])
    .expression((eb) =>
      eb
        .selectFrom('account_invitations')
        .select(['account_id', sql<string>`cast(${userId} as uuid)`.as('user_id'), 'role_name'])
        .where('email', '=', email),
    )
    .onConflict((c) => c.columns(['account_id', 'user_id']).doNothing())
    .execute();
  await db.deleteFrom('account_invitations').where('email', '=', email).execute();
}
