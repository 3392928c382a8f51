import { type Kysely, sql } from 'kysely';

/**
 * The gateway's per-method figures and its request log.
 * - rpc_method_stats: calls, errors by kind and a latency histogram (bucket counts, merged by adding
 *   them: ebs_add_counts) per account, key, network, method and hour (kept a week), day and week
 *   (Monday to Sunday, UTC; kept 90 days), and per day and week for all of an account's keys
 *   together (api_key_id all zeros).
 * - rpc_request_log: a sample of each account's requests (every failed one kept), never a body nor
 *   a key's secret. Key ids carry no foreign key: the figures of a deleted key stay.
 */
/** Adds two histograms kept as arrays (until 2026_11_27_0301_analytics_reads, whose down brings it back). */
export const createAddCounts = sql`
  create function ebs_add_counts(a bigint[], b bigint[]) returns bigint[]
  language sql immutable parallel safe as $$
    select coalesce(array_agg(coalesce(a[i], 0) + coalesce(b[i], 0) order by i), '{}')
    from generate_series(1, greatest(coalesce(cardinality(a), 0), coalesce(cardinality(b), 0))) as i
  $$
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAddCounts.execute(db);
  await sql`
    create table rpc_method_stats (
      account_id uuid not null references accounts(id) on delete cascade,
      period_start timestamptz not null,
      period text not null check (period in ('hour', 'day', 'week')),
      api_key_id uuid not null,
      network text not null,
      method text not null,
      calls bigint not null check (calls >= 0),
      rpc_errors bigint not null default 0,
      refused bigint not null default 0,
      upstream_errors bigint not null default 0,
      latency bigint[] not null,
      -- Led by what every read names: the account, hours or days, one key (or all keys' rows), then the range.
      primary key (account_id, period, api_key_id, period_start, network, method)
    )
  `.execute(db);
  await sql`create index rpc_method_stats_period on rpc_method_stats (period, period_start)`.execute(db);
  await sql`
    create table rpc_request_log (
      id bigint generated always as identity primary key,
      account_id uuid not null references accounts(id) on delete cascade,
      api_key_id uuid not null,
      network text not null,
      methods text[] not null,
      http_status smallint not null,
      error_code integer,
      failed boolean not null,
      latency_ms real not null,
      client_ip text not null,
      origin text,
      created_at timestamptz not null
    )
  `.execute(db);
  await sql`create index rpc_request_log_account on rpc_request_log (account_id, created_at desc, id desc)`.execute(db);
  await sql`create index rpc_request_log_failed on rpc_request_log (account_id, created_at desc, id desc) where failed`.execute(
    db,
  );
  await sql`create index rpc_request_log_age on rpc_request_log (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rpc_request_log`.execute(db);
  await sql`drop table rpc_method_stats`.execute(db);
  await sql`drop function ebs_add_counts(bigint[], bigint[])`.execute(db);
}
