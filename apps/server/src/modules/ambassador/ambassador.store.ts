import { randomInt } from 'node:crypto';
import { type Ambassador, normalizeEmail } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Card deposits earn rewards; welcome credits and manual deposits do not. */
const REWARDED_TYPES = ['DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO'];

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
  const linked = await db
    .selectFrom('users')
    .select('email')
    .where('referral_code', '=', row.code)
    .where('confirmed_at', 'is not', null)
    .where('id', '!=', userId)
    .orderBy('created_at')
    .orderBy('email')
    .execute();
  return { balance: Number(row.balance), code: row.code, rewardRate: Number(row.rate), linkedUsers: linked };
}

/**
 * Credits ambassadors for completed card deposits (one-time or auto) on accounts created by the users
 * they referred: rate × amount at the rate of that moment, rounded to the ledger's 6 decimals. One
 * statement, keyed by the deposit, so a deposit rewards once however often this runs; with no id it
 * sweeps every deposit (the `ambassadors` job), catching one whose settling process stopped before.
 */
export async function rewardDeposits(db: Db, transactionId?: string): Promise<number> {
  let source = db
    .selectFrom('account_transactions as t')
    .innerJoin('accounts as acc', 'acc.id', 't.account_id')
    .innerJoin('users as u', 'u.id', 'acc.created_by')
    .innerJoin('ambassadors as amb', 'amb.code', 'u.referral_code')
    .select([
      't.id',
      'amb.user_id',
      'u.id as referred',
      't.amount',
      'amb.reward_rate',
      sql<string>`round(t.amount * amb.reward_rate, 6)`.as('reward'),
    ])
    .where('t.status', '=', 'COMPLETED')
    .where('t.type', 'in', REWARDED_TYPES)
    .where('t.amount', '>', '0')
    .whereRef('amb.user_id', '!=', 'u.id');
  if (transactionId) source = source.where('t.id', '=', transactionId);
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
