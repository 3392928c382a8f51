import { type Kysely, sql } from 'kysely';

/**
 * Alerts. account_alerts: an account's alert settings (one row, JSON: each kind's switch and
 * threshold) and the members e-mailed besides the owner. account_alert_states: each alert that
 * holds or held, per subject (a key, or '' for the account), with when it last changed, so that a
 * start and a stop are each sent once. rpc_recent_calls: the gateway's calls and failures per
 * account and minute, kept an hour, for the error-rate alert.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table account_alerts (
      account_id uuid primary key references accounts(id) on delete cascade,
      settings jsonb not null,
      recipients jsonb not null default '[]',
      any_enabled boolean not null,
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index account_alerts_enabled on account_alerts (account_id) where any_enabled`.execute(db);
  await sql`
    create table account_alert_states (
      account_id uuid not null references accounts(id) on delete cascade,
      kind text not null,
      subject text not null,
      holding boolean not null,
      message text not null,
      changed_at timestamptz not null,
      primary key (account_id, kind, subject)
    )
  `.execute(db);
  await sql`
    create table rpc_recent_calls (
      account_id uuid not null references accounts(id) on delete cascade,
      minute timestamptz not null,
      calls bigint not null,
      errors bigint not null,
      primary key (account_id, minute)
    )
  `.execute(db);
  await sql`create index rpc_recent_calls_minute on rpc_recent_calls (minute)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rpc_recent_calls`.execute(db);
  await sql`drop table account_alert_states`.execute(db);
  await sql`drop table account_alerts`.execute(db);
}
