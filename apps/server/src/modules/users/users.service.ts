import type { UserInfo } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { findAmbassador } from '../ambassador/ambassador.service.ts';
import { findUser } from './users.store.ts';

/** What GET /user answers: the user's details and, for an ambassador, their referral code and rate. */
export async function findUserInfo(db: Db, userId: string): Promise<UserInfo | undefined> {
  const user = await findUser(db, userId);
  if (!user) return undefined;
  return { ...user, ambassador: (await findAmbassador(db, userId)) ?? null };
}
