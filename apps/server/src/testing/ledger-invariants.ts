import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { usagePriceOf } from '../modules/usage/index.ts';

/** One broken money rule: which rule, and the row that breaks it. */
export interface LedgerViolation {
  rule: string;
  detail: string;
}

const CARD_DEPOSITS = sql.raw(`('DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO')`);
const CREDITS = sql.raw(
  `('DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO', 'WELCOME_CREDIT', 'ADMIN_MANUAL_DEPOSIT', 'DISPUTE_REINSTATED')`,
);
const TAKEN_BACK = sql.raw(`('REFUND_CARD_DEPOSIT', 'DISPUTE_CARD_DEPOSIT')`);
const REVERSALS = sql.raw(`('REFUND_CARD_DEPOSIT', 'DISPUTE_CARD_DEPOSIT', 'DISPUTE_REINSTATED')`);

/**
 * The money rules as SQL, each query answering the rows that break it (as `detail` text). They read
 * the database only, so any test can check them after whatever it did: concurrent requests, a
 * crash, a restart. Card checks read the local processor's charges (`processor_charges`).
 */
const RULES: Record<string, RawBuilder<{ detail: string }>> = {
  // The triggers' per-account totals (migration 0011) are the sums of the ledger rows.
  'totals match the ledger': sql`
    select a.id || ': kept ' || coalesce(t.balance, 0) || '/' || coalesce(t.pending_withdrawals, 0) || '/'
      || coalesce(t.listed_count, 0) || ', summed ' || coalesce(s.balance, 0) || '/' || coalesce(s.pending, 0)
      || '/' || coalesce(s.listed, 0) as detail
    from accounts a
    left join account_ledger_totals t on t.account_id = a.id
    left join (
      select account_id, sum(amount) filter (where status = 'COMPLETED') as balance,
        -sum(amount) filter (where status = 'PENDING' and amount < 0) as pending,
        count(*) filter (where status <> 'FAILED') as listed
      from account_transactions group by account_id
    ) s on s.account_id = a.id
    where coalesce(t.balance, 0) <> coalesce(s.balance, 0)
      or coalesce(t.pending_withdrawals, 0) <> coalesce(s.pending, 0)
      or coalesce(t.listed_count, 0) <> coalesce(s.listed, 0)`,

  'credits are positive and withdrawals negative': sql`
    select id || ' ' || type || ' ' || amount as detail from account_transactions
    where (type in ${CREDITS} and amount <= 0) or ((type like 'WITHDRAW%' or type in ${TAKEN_BACK}) and amount >= 0)`,

  // Refunds and disputes (card-reversal.service.ts) are rows of their own, beside the deposit they reverse.
  'a reversal reverses a completed card deposit of its own account, never more than it': sql`
    select r.id || ' ' || r.type || ' ' || r.amount || ' of ' || coalesce(d.status || ' ' || d.type || ' ' || d.amount,
      'no deposit') as detail
    from account_transactions r
    left join account_transactions d on d.id::text = r.metadata->>'depositId'
    where r.type in ${REVERSALS} and (d.id is null or d.account_id <> r.account_id or d.status <> 'COMPLETED'
      or d.type not in ${CARD_DEPOSITS} or r.status <> 'COMPLETED')
    union all
    select d.id || ': deposited ' || d.amount || ', reversed ' || sum(r.amount) as detail
    from account_transactions d join account_transactions r on r.metadata->>'depositId' = d.id::text
      and r.type in ${REVERSALS}
    group by d.id, d.amount having sum(r.amount) > 0 or -sum(r.amount) > d.amount`,

  // A refund frees what a dispute holds of the refunded money, so a dispute may be given back in parts.
  'a dispute is taken once and given back at most what it took, won at most once': sql`
    select metadata->>'disputeId' || ': ' || string_agg(type || ' ' || amount, ', ') as detail
    from account_transactions where type in ('DISPUTE_CARD_DEPOSIT', 'DISPUTE_REINSTATED')
    group by metadata->>'disputeId'
    having count(*) filter (where type = 'DISPUTE_CARD_DEPOSIT') <> 1 or sum(amount) > 0
      or count(*) filter (where idempotency_key like 'card-dispute-reinstated:%') > 1`,

  "an ambassador's reward follows what its deposit kept": sql`
    select d.id || ': reward ' || sum(x.amount) || ' for ' || r.amount || ' × ' || (d.amount + coalesce(k.reversed, 0))
      || ' / ' || d.amount as detail
    from ambassador_rewards r
    join account_transactions d on d.id = r.transaction_id and d.type in ${CARD_DEPOSITS}
    left join lateral (select sum(t.amount) as reversed from account_transactions t
      where t.metadata->>'depositId' = d.id::text and t.type in ${REVERSALS}) k on true
    join ambassador_rewards x on x.transaction_id = d.id or x.transaction_id in (select t.id from account_transactions t
      where t.metadata->>'depositId' = d.id::text and t.type in ${REVERSALS})
    group by d.id, d.amount, r.amount, k.reversed
    having sum(x.amount) <> round(r.amount * (d.amount + coalesce(k.reversed, 0)) / d.amount, 6)`,

  "a local charge's refunds are the ledger's refunds": sql`
    select c.id || ': refunded ' || coalesce(p.total, 0) || ', in the ledger ' || coalesce(-l.total, 0) as detail
    from processor_charges c
    left join (select charge_id, sum(amount) as total from processor_refunds group by charge_id) p on p.charge_id = c.id
    left join (select metadata->>'chargeId' as charge_id, sum(amount) as total from account_transactions
      where type = 'REFUND_CARD_DEPOSIT' group by metadata->>'chargeId') l on l.charge_id = c.id
    where coalesce(p.total, 0) <> coalesce(-l.total, 0) or coalesce(p.total, 0) > c.amount`,

  'a balance below zero comes from usage': sql`
    select t.account_id || ': ' || t.balance as detail from account_ledger_totals t
    where t.balance < 0 and not exists (
      select 1 from account_transactions w
      where w.account_id = t.account_id and w.type = 'WITHDRAW_RESOURCE_USAGE' and w.status = 'COMPLETED')`,

  'every card deposit has a key': sql`
    select id as detail from account_transactions where type in ${CARD_DEPOSITS} and idempotency_key is null`,

  'no idempotency key is charged twice': sql`
    select idempotency_key || ' x' || count(*) as detail from processor_charges
    group by idempotency_key having count(*) > 1`,

  'every succeeded charge has its completed deposit': sql`
    select c.id || ' (' || c.idempotency_key || ') → '
      || coalesce(t.status || ' ' || t.type || ' ' || t.amount, 'no ledger row') as detail
    from processor_charges c
    left join account_transactions t on t.idempotency_key = c.idempotency_key
    where c.status = 'SUCCEEDED' and (t.id is null or t.status <> 'COMPLETED' or t.type not in ${CARD_DEPOSITS}
      or t.amount <> c.amount or t.metadata->>'chargeId' is distinct from c.id)`,

  'every completed card deposit has its succeeded charge': sql`
    select t.id || ' (' || t.idempotency_key || ') → ' || coalesce(c.status || ' ' || c.amount, 'no charge') as detail
    from account_transactions t
    left join processor_charges c on c.idempotency_key = t.idempotency_key
    where t.type in ${CARD_DEPOSITS} and t.status = 'COMPLETED'
      and (c.id is null or c.status <> 'SUCCEEDED' or c.amount <> t.amount)`,

  'a failed charge posts nothing': sql`
    select c.id || ' → ' || t.id || ' ' || t.status as detail
    from processor_charges c join account_transactions t on t.idempotency_key = c.idempotency_key
    where c.status = 'FAILED' and t.status <> 'FAILED'`,

  "a charge is made to the account's own customer": sql`
    select c.id || ' charged ' || c.customer_id || ' for account ' || a.id as detail
    from processor_charges c
    join account_transactions t on t.idempotency_key = c.idempotency_key
    join accounts a on a.id = t.account_id
    where a.customer_id is distinct from c.customer_id`,

  'each usage withdrawal is its records × their prices': sql`
    select w.id || ': ' || w.amount || ' for ' || coalesce((-round(sum(${usagePriceOf('u')}), 6))::text, 'no records')
      as detail
    from account_transactions w
    left join account_resource_usage u on u.transaction_id = w.id
    where w.type = 'WITHDRAW_RESOURCE_USAGE'
    group by w.id, w.amount, w.account_id, w.metadata
    having count(u.id) = 0 or w.amount <> -round(sum(${usagePriceOf('u')}), 6)
      or bool_or(u.account_id <> w.account_id) or bool_or(u.date::text <> w.metadata->>'date')
      or bool_or(u.status <> 'BILLED')`,

  'billed usage is linked to its withdrawal': sql`
    select u.id || ' ' || u.status || ' ' || coalesce(u.compute_units, u.usage) || ' × ' || u.unit_price as detail
    from account_resource_usage u
    where (u.status = 'BILLED' and u.transaction_id is null and ${usagePriceOf('u')} >= 0.0000005)
      or (u.status = 'PENDING' and u.transaction_id is not null)`,

  // Once per user: each row's key names its user, and the key is unique. The user owns the account.
  'a welcome credit is 10 USD, once per user, into an account its user owns': sql`
    select t.id || ': ' || t.amount || ' ' || coalesce(t.idempotency_key, 'no key') as detail
    from account_transactions t
    left join users u on t.idempotency_key = 'welcome-credit:' || u.id
    left join account_members m on m.account_id = t.account_id and m.user_id = u.id and m.role_name = 'OWNER'
    where t.type = 'WELCOME_CREDIT'
      and (u.id is null or not u.welcome_credit_redeemed or m.user_id is null or t.amount <> 10)`,
};

/** Rules that hold only once nothing is in flight: no card deposit left between its charge and its settling. */
const SETTLED_RULES: Record<string, RawBuilder<{ detail: string }>> = {
  'no card deposit is left pending': sql`
    select id || ' ' || type || ' ' || amount || ' (' || coalesce(idempotency_key, '') || ')' as detail
    from account_transactions where type in ${CARD_DEPOSITS} and status = 'PENDING'`,
};

/**
 * Every money rule the database breaks, read in one snapshot. `settled` adds the rules that need
 * quiet (no request, job or crash recovery in flight); leave it out while writers still run.
 */
export async function ledgerViolations(db: Db, options: { settled?: boolean } = {}): Promise<LedgerViolation[]> {
  const rules = { ...RULES, ...(options.settled ? SETTLED_RULES : {}) };
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const found: LedgerViolation[] = [];
      for (const [rule, query] of Object.entries(rules)) {
        const { rows } = await query.execute(trx);
        for (const row of rows) found.push({ rule, detail: row.detail });
      }
      return found;
    });
}

/** An account's balance as the ledger holds it: the sum of its completed rows, as decimal text. */
export async function ledgerBalance(db: Db, accountId: string): Promise<string> {
  const { rows } = await sql<{ balance: string }>`
    select coalesce(sum(amount) filter (where status = 'COMPLETED'), 0)::text as balance
    from account_transactions where account_id = ${accountId}`.execute(db);
  return rows[0]?.balance ?? '0';
}
