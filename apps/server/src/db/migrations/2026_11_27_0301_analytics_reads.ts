import { type Kysely, sql } from 'kysely';
import { createAddCounts } from './2026_11_27_0101_gateway_insight.ts';

/**
 * Faster Analytics reads of rpc_method_stats.
 * - latency becomes one decimal number holding the histogram, 16 digits a bucket (bucket i in the
 *   digits 16·i to 16·i + 15 from the right): the database then sums a range's histograms with one
 *   numeric sum() per row, where it took one sum per bucket of an array (a few times slower, PGlite
 *   and PostgreSQL alike), and a flush merges a row by adding. ebs_add_counts goes.
 * - Each day of each key and of all keys gets a row over all networks together (network '*'), so a
 *   chart of every network reads a row per day and method; the days already kept are summed into them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ebs_pack_counts(a bigint[]) returns numeric
    language sql immutable as $$
      select coalesce(sum(v::numeric * ('1' || repeat('0', 16 * (i::int - 1)))::numeric), 0)
      from unnest(a) with ordinality as u(v, i)
    $$
  `.execute(db);
  await sql`alter table rpc_method_stats alter column latency type numeric using ebs_pack_counts(latency)`.execute(db);
  await sql`drop function ebs_pack_counts(bigint[])`.execute(db);
  await sql`drop function ebs_add_counts(bigint[], bigint[])`.execute(db);
  await sql`
    insert into rpc_method_stats (account_id, period_start, period, api_key_id, network, method,
      calls, rpc_errors, refused, upstream_errors, latency)
    select account_id, period_start, period, api_key_id, '*', method,
      sum(calls), sum(rpc_errors), sum(refused), sum(upstream_errors), sum(latency)
    from rpc_method_stats where period = 'day'
    group by account_id, period_start, period, api_key_id, method
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from rpc_method_stats where network = '*'`.execute(db);
  await createAddCounts.execute(db);
  await sql`
    create function ebs_unpack_counts(n numeric) returns bigint[]
    language sql immutable as $$
      select coalesce(array_agg((div(n, ('1' || repeat('0', 16 * i))::numeric) % 1e16)::bigint order by i), '{}')
      from generate_series(0, (length(n::text) - 1) / 16) as i
    $$
  `.execute(db);
  await sql`alter table rpc_method_stats alter column latency type bigint[] using ebs_unpack_counts(latency)`.execute(
    db,
  );
  await sql`drop function ebs_unpack_counts(numeric)`.execute(db);
}
