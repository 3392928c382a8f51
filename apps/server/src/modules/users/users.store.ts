import type { UserInfo } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { findAmbassador } from '../ambassador/ambassador.store.ts';

export async function findUserInfo(db: Db, userId: string): Promise<UserInfo | undefined> {
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
    ambassador: (await findAmbassador(db, userId)) ?? null,
  };
}
