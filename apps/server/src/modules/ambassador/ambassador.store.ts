import { randomInt } from 'node:crypto';
import { type Ambassador, normalizeEmail } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { accountCreators } from '../accounts/index.ts';
import { findConfirmedUsersReferredBy, findUserIdByEmail, userReferralCodes } from '../identity/index.ts';
import { completedCardDeposits } from '../ledger/index.ts';

/** Eight characters people can read aloud: no 0/O or 1/I. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newReferralCode = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** Makes a user an ambassador, or changes the rate of one; the code is kept once given. */
export async function grantAmbassador(
  db: Db,
  email: string,
  rewardRate: string,
): Promise<{ email: string; code: string; rewardRate: number } | undefined> {
  const userId = await findUserIdByEmail(db, normalizeEmail(email));
  if (!userId) return undefined;
  const row = await db
    .insertInto('ambassadors')
    .values({ user_id: userId, code: newReferralCode(), reward_rate: rewardRate })
    .onConflict((c) => c.column('user_id').doUpdateSet({ reward_rate: rewardRate }))
    .returning(['code', sql<string>`reward_rate::text`.as('rate')])
    .executeTakeFirstOrThrow();
  return { email: normalizeEmail(email), code: row.code, rewardRate: Number(row.rate) };
}

/** An ambassador's card: the balance is the sum of its rewards; linked users are confirmed sign-ups with its code. */
export async function findAmbassador(db: Db, userId: string): Promise<Ambassador | undefined> {
  const row = await db
    .selectFrom('ambassadors as a')
    .select([
      'a.code',
      sql<string>`a.reward_rate::text`.as('rate'),
      sql<string>`(select coalesce(sum(r.amount), 0)::text from ambassador_rewards r where r.ambassador_user_id = a.user_id)`.as(
        'balance',
      ),
    ])
    .where('a.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const linked = (await findConfirmedUsersReferredBy(db, row.code))
    .filter((user) => user.id !== userId)
    .map((user) => ({ email: user.email }));
  return { balance: Number(row.balance), code: row.code, rewardRate: Number(row.rate), linkedUsers: linked };
}

/** The user id of the ambassador whose referral code this is (codes are upper case). */
export async function findAmbassadorOfCode(db: Db, code: string): Promise<string | undefined> {
  const row = await db.selectFrom('ambassadors').select('user_id').where('code', '=', code).executeTakeFirst();
  return row?.user_id;
}

/**
 * Credits ambassadors for completed card deposits (one-time or auto) on accounts created by the users
 * they referred: rate × amount at the rate of that moment, rounded to the ledger's 6 decimals. One
 * statement, keyed by the deposit, so a deposit rewards once however often this runs; with no id it
 * sweeps every deposit (the `ambassadors` job), catching one whose settling process stopped before.
 * Card deposits earn rewards; welcome credits and manual deposits do not. The ledger's deposits, the
 * accounts' creators and the users' referral codes are their owners' tables, joined here as theirs.
 */
export async function rewardDeposits(db: Db, transactionId?: string): Promise<number> {
  let deposits = completedCardDeposits(db).where('amount', '>', '0');
  if (transactionId) deposits = deposits.where('id', '=', transactionId);
  const source = db
    .selectFrom(deposits.as('t'))
    .innerJoin(accountCreators(db).as('acc'), 'acc.account_id', 't.account_id')
    .innerJoin(userReferralCodes(db).as('u'), 'u.user_id', 'acc.created_by')
    .innerJoin('ambassadors as amb', 'amb.code', 'u.referral_code')
    .select([
      't.id',
      'amb.user_id',
      'u.user_id as referred',
      't.amount',
      'amb.reward_rate',
      sql<string>`round(t.amount * amb.reward_rate, 6)`.as('reward'),
    ])
    .whereRef('amb.user_id', '!=', 'u.user_id');
  const result = await db
    .insertInto('ambassador_rewards')
    .columns(['transaction_id', 'ambassador_user_id', 'referred_user_id', 'deposit_amount', 'reward_rate', 'amount'])
    .expression(source)
    .onConflict((c) => c.column('transaction_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * A reward row for a refund or dispute of a rewarded deposit, keyed by that ledger row: it brings the
 * sum of the deposit's reward rows (the deposit's own and `earlierIds`' adjustments) to the reward ×
 * kept ÷ deposited, rounded once to 6 decimals, so several partial refunds never drift by rounding.
 * Nothing when the deposit earned no reward or the sum is already right.
 */
export async function insertRewardAdjustment(
  db: Db,
  input: { depositId: string; transactionId: string; amount: string; keptAmount: string; earlierIds: string[] },
): Promise<void> {
  await sql`
    insert into ambassador_rewards
      (transaction_id, ambassador_user_id, referred_user_id, deposit_amount, reward_rate, amount)
    select ${input.transactionId}, r.ambassador_user_id, r.referred_user_id, ${input.amount}::numeric,
      r.reward_rate, a.change
    from ambassador_rewards r
    cross join lateral (
      select round(r.amount * ${input.keptAmount}::numeric / r.deposit_amount, 6)
        - (select coalesce(sum(x.amount), 0) from ambassador_rewards x
           where x.transaction_id = any(${input.earlierIds}::uuid[])) as change
    ) a
    where r.transaction_id = ${input.depositId} and a.change <> 0
    on conflict (transaction_id) do nothing`.execute(db);
}
