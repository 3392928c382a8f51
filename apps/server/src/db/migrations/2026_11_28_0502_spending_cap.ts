import { type Kysely, sql } from 'kysely';

/**
 * The account's spending cap (Billing): the gateway refuses its calls once this month's RPC usage
 * reaches monthly_cap_usd, and Auto Pay deposits at most auto_pay_monthly_max_usd a calendar month;
 * null: none. The partial index keeps the alerts job's read of the capped accounts small.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table accounts
      add column monthly_cap_usd numeric(12, 2) check (monthly_cap_usd > 0),
      add column auto_pay_monthly_max_usd numeric(12, 2) check (auto_pay_monthly_max_usd > 0)
  `.execute(db);
  await sql`create index accounts_monthly_cap on accounts (id) where monthly_cap_usd is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index accounts_monthly_cap`.execute(db);
  await sql`alter table accounts drop column auto_pay_monthly_max_usd, drop column monthly_cap_usd`.execute(db);
}
