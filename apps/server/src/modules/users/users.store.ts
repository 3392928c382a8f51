import type { Ambassador, UserInfo } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

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

export async function findAmbassador(db: Db, userId: string): Promise<Ambassador | undefined> {
  const row = await db
    .selectFrom('ambassadors')
    .select(['code', sql<string>`reward_rate::text`.as('rate'), sql<string>`balance::text`.as('balance')])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const linked = await db
    .selectFrom('users')
    .select('email')
    .where('referral_code', '=', row.code)
    .where('confirmed_at', 'is not', null)
    .orderBy('created_at')
    .execute();
  return { balance: Number(row.balance), code: row.code, rewardRate: Number(row.rate), linkedUsers: linked };
}
