import type { UserInfo } from '@ebs/contract';
import type { Db } from '../../db/database.ts';

/** The user's own details; the ambassador part is the ambassador module's (see users.service). */
export async function findUser(db: Db, userId: string): Promise<Omit<UserInfo, 'ambassador'> | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'given_name', 'family_name', 'mfa_enabled', 'welcome_credit_redeemed'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    email: row.email,
    firstName: row.given_name,
    lastName: row.family_name,
    mfaEnabled: row.mfa_enabled,
    bonusRedemption: { welcomeCredit: row.welcome_credit_redeemed },
  };
}
