import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { findConfirmedUserIdByEmail, findUserEmail, findUserIdByEmail } from '../identity/index.ts';
import { findMemberRole } from './membership.store.ts';

/**
 * SQL of account access: members (account_members) and pending invitations (account_invitations).
 * Users' e-mails are identity's (`users`), read through its face.
 */

export interface Member {
  userId: string;
  email: string;
  roleName: string;
}

/** A user who has confirmed their e-mail; an unconfirmed sign-up is invited instead, like a stranger. */
export async function findConfirmedUserByEmail(db: Db, email: string): Promise<{ id: string } | undefined> {
  const id = await findConfirmedUserIdByEmail(db, email);
  return id === undefined ? undefined : { id };
}

/** Whether the user with this e-mail (confirmed or not) is a member of the account. */
export async function isMemberByEmail(db: Db, accountId: string, email: string): Promise<boolean> {
  const userId = await findUserIdByEmail(db, email);
  return userId !== undefined && (await findMemberRole(db, accountId, userId)) !== undefined;
}

/** The e-mail of a user who has confirmed it; an unconfirmed one takes up no invitation. */
export { findConfirmedEmail } from '../identity/index.ts';

/** A member of the account with their e-mail. */
export async function findMember(db: Db, accountId: string, userId: string): Promise<Member | undefined> {
  const roleName = await findMemberRole(db, accountId, userId);
  if (roleName === undefined) return undefined;
  const email = await findUserEmail(db, userId);
  return email === undefined ? undefined : { userId, email, roleName };
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

/** The member who joined the account by an invitation, now used up. */
export async function findMemberByInvitation(
  db: Db,
  accountId: string,
  invitationId: string,
): Promise<{ userId: string; roleName: string } | undefined> {
  const row = await db
    .selectFrom('account_members')
    .select(['user_id', 'role_name'])
    .where('account_id', '=', accountId)
    .where('invitation_id', '=', invitationId)
    .executeTakeFirst();
  return row && { userId: row.user_id, roleName: row.role_name };
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
    .columns(['account_id', 'user_id', 'role_name', 'invitation_id'])
    .expression((eb) =>
      eb
        .selectFrom('account_invitations')
        .select(['account_id', sql<string>`cast(${userId} as uuid)`.as('user_id'), 'role_name', 'id as invitation_id'])
        .where('email', '=', email),
    )
    .onConflict((c) => c.columns(['account_id', 'user_id']).doNothing())
    .execute();
  await db.deleteFrom('account_invitations').where('email', '=', email).execute();
}
