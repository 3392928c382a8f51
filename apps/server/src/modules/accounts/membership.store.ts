import type { Db } from '../../db/database.ts';

/** The user's role in an account, or undefined when they are not a member. */
export async function findMemberRole(db: Db, accountId: string, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('account_members')
    .select('role_name')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role_name;
}
