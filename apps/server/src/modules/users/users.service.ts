import type { UserInfo } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { findAmbassador } from '../ambassador/index.ts';
import { findUserProfile } from '../identity/index.ts';

/** The user's own details, read through identity (which owns `users`); the ambassador part is the ambassador module's. */
async function findUser(db: Db, userId: string): Promise<Omit<UserInfo, 'ambassador'> | undefined> {
  const user = await findUserProfile(db, userId);
  if (!user) return undefined;
  return {
    id: user.id,
    email: user.email,
    firstName: user.givenName,
    lastName: user.familyName,
    mfaEnabled: user.mfaEnabled,
    bonusRedemption: { welcomeCredit: user.welcomeCreditRedeemed },
  };
}

/** What GET /user answers: the user's details and, for an ambassador, their referral code and rate. */
export async function findUserInfo(db: Db, userId: string): Promise<UserInfo | undefined> {
  const user = await findUser(db, userId);
  if (!user) return undefined;
  return { ...user, ambassador: (await findAmbassador(db, userId)) ?? null };
}
