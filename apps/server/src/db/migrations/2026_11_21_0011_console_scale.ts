import { type Kysely, sql } from 'kysely';

/**
 * The console's lists, charts and cards at scale (docs/performance.md, the console API benchmark):
 *
 * - The usage history's index holds its whole order (day, resource, creation, id), so that a page's
 *   ids and a filtered list's count are read from the index alone, in either direction, instead of
 *   every skipped record from the table. The transaction history's (account, date) index already
 *   serves its order (ties on a date are sorted as they come); one by type serves the Monthly
 *   Bill card, which would otherwise read the month's every transaction to find its withdrawals.
 * - Totals kept per account by statement triggers, in the same transaction as the rows they count:
 *   the ledger's balance, pending withdrawals and history count, and the number of usage records.
 *   Summing a million rows for every Available Credits card, every ledger write's suspension check
 *   and every page's totalCount grew with the account; reading one row does not.
 * - `account_totals_recount()` rebuilds the totals from the rows: the backfill here, and the repair
 *   for an operator who changed rows with triggers off (a bulk load, a manual fix).
 */
const UP = [
  'create index account_transactions_type on account_transactions (account_id, type, created_at)',
  'drop index account_resource_usage_account',
  `create index account_resource_usage_history
    on account_resource_usage (account_id, date, resource_name, created_at, id)`,
  `create table account_ledger_totals (
    account_id uuid primary key references accounts(id) on delete cascade,
    listed_count bigint not null default 0,
    balance numeric not null default 0,
    pending_withdrawals numeric not null default 0
  )`,
  `comment on table account_ledger_totals is
    'Per account, kept by triggers on account_transactions: listed_count counts the rows of the history (all but FAILED), balance sums the COMPLETED amounts, pending_withdrawals the PENDING negative ones (as a positive amount).'`,
  `create table account_usage_totals (
    account_id uuid primary key references accounts(id) on delete cascade,
    record_count bigint not null default 0
  )`,
  // One statement per trigger event: a transition table exists only for the event that made it.
  // Accounts are upserted in id order, so that two statements never lock them in opposite orders.
  `create function account_ledger_totals_apply() returns trigger language plpgsql as $$
  begin
    if tg_op = 'INSERT' then
      insert into account_ledger_totals as t (account_id, listed_count, balance, pending_withdrawals)
      select account_id, count(*) filter (where status <> 'FAILED'),
        coalesce(sum(amount) filter (where status = 'COMPLETED'), 0),
        coalesce(-sum(amount) filter (where status = 'PENDING' and amount < 0), 0)
      from new_rows group by account_id order by account_id
      on conflict (account_id) do update set listed_count = t.listed_count + excluded.listed_count,
        balance = t.balance + excluded.balance, pending_withdrawals = t.pending_withdrawals + excluded.pending_withdrawals;
    elsif tg_op = 'UPDATE' then
      update account_ledger_totals t set listed_count = t.listed_count + d.listed,
        balance = t.balance + d.completed, pending_withdrawals = t.pending_withdrawals + d.pending
      from (
        select account_id, sum(listed) as listed, sum(completed) as completed, sum(pending) as pending
        from (
          select account_id, (status <> 'FAILED')::int as listed,
            case when status = 'COMPLETED' then amount else 0 end as completed,
            case when status = 'PENDING' and amount < 0 then -amount else 0 end as pending
          from new_rows
          union all
          select account_id, -(status <> 'FAILED')::int,
            case when status = 'COMPLETED' then -amount else 0 end,
            case when status = 'PENDING' and amount < 0 then amount else 0 end
          from old_rows
        ) change group by account_id
      ) d
      where t.account_id = d.account_id and (d.listed <> 0 or d.completed <> 0 or d.pending <> 0);
    else
      update account_ledger_totals t set listed_count = t.listed_count - d.listed,
        balance = t.balance - d.completed, pending_withdrawals = t.pending_withdrawals - d.pending
      from (
        select account_id, count(*) filter (where status <> 'FAILED') as listed,
          coalesce(sum(amount) filter (where status = 'COMPLETED'), 0) as completed,
          coalesce(-sum(amount) filter (where status = 'PENDING' and amount < 0), 0) as pending
        from old_rows group by account_id
      ) d
      where t.account_id = d.account_id;
    end if;
    return null;
  end $$`,
  `create trigger account_ledger_totals_insert after insert on account_transactions
    referencing new table as new_rows for each statement execute function account_ledger_totals_apply()`,
  `create trigger account_ledger_totals_update after update on account_transactions
    referencing old table as old_rows new table as new_rows for each statement execute function account_ledger_totals_apply()`,
  `create trigger account_ledger_totals_delete after delete on account_transactions
    referencing old table as old_rows for each statement execute function account_ledger_totals_apply()`,
  // Usage records change status and usage, never their account: only inserts and deletes count.
  `create function account_usage_totals_apply() returns trigger language plpgsql as $$
  begin
    if tg_op = 'INSERT' then
      insert into account_usage_totals as t (account_id, record_count)
      select account_id, count(*) from new_rows group by account_id order by account_id
      on conflict (account_id) do update set record_count = t.record_count + excluded.record_count;
    else
      update account_usage_totals t set record_count = t.record_count - d.records
      from (select account_id, count(*) as records from old_rows group by account_id) d
      where t.account_id = d.account_id;
    end if;
    return null;
  end $$`,
  `create trigger account_usage_totals_insert after insert on account_resource_usage
    referencing new table as new_rows for each statement execute function account_usage_totals_apply()`,
  `create trigger account_usage_totals_delete after delete on account_resource_usage
    referencing old table as old_rows for each statement execute function account_usage_totals_apply()`,
  // Writers wait while the totals are rebuilt, so that none is counted twice or missed.
  `create function account_totals_recount() returns void language sql as $$
    lock table account_transactions, account_resource_usage in share mode;
    delete from account_ledger_totals;
    insert into account_ledger_totals (account_id, listed_count, balance, pending_withdrawals)
    select account_id, count(*) filter (where status <> 'FAILED'),
      coalesce(sum(amount) filter (where status = 'COMPLETED'), 0),
      coalesce(-sum(amount) filter (where status = 'PENDING' and amount < 0), 0)
    from account_transactions group by account_id;
    delete from account_usage_totals;
    insert into account_usage_totals (account_id, record_count)
    select account_id, count(*) from account_resource_usage group by account_id;
  $$`,
  'select account_totals_recount()',
];

const DOWN = [
  'drop function account_totals_recount()',
  'drop trigger account_usage_totals_delete on account_resource_usage',
  'drop trigger account_usage_totals_insert on account_resource_usage',
  'drop function account_usage_totals_apply()',
  'drop trigger account_ledger_totals_delete on account_transactions',
  'drop trigger account_ledger_totals_update on account_transactions',
  'drop trigger account_ledger_totals_insert on account_transactions',
  'drop function account_ledger_totals_apply()',
  'drop table account_usage_totals',
  'drop table account_ledger_totals',
  'drop index account_resource_usage_history',
  'create index account_resource_usage_account on account_resource_usage (account_id, date desc)',
  'drop index account_transactions_type',
];

/** One statement per query (prepared statements take a single command); function bodies hold semicolons. */
async function run(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
