import { randomInt } from 'node:crypto';
import { normalizeEmail } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Eight characters people can read aloud: no 0/O or 1/I. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newReferralCode = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** Makes a user an ambassador, or changes the rate of one; the code is kept once given. */
export async function grantAmbassador(
  db: Db,
  email: string,
  rewardRate: string,
): Promise<{ email: string; code: string; rewardRate: number } | undefined> {
  const user = await db.selectFrom('users').select('id').where('email', '=', normalizeEmail(email)).executeTakeFirst();
  if (!user) return undefined;
  const row = await db
    .insertInto('ambassadors')
    .values({ user_id: user.id, code: newReferralCode(), reward_rate: rewardRate })
    .onConflict((c) => c.column('user_id').doUpdateSet({ reward_rate: rewardRate }))
    .returning(['code', sql<string>`reward_rate::text`.as('rate')])
    .executeTakeFirstOrThrow();
  return { email: normalizeEmail(email), code: row.code, rewardRate: Number(row.rate) };
}
