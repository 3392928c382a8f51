import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** One account's calls of one method through one key and network in one hour (UTC). */
export interface MethodStatCount {
  accountId: string;
  apiKeyId: string;
  network: string;
  method: string;
  /** The hour's start, ms since the epoch. */
  hour: number;
  calls: number;
  /** JSON-RPC error answers. */
  rpcErrors: number;
  /** Calls refused with an HTTP 4xx (limits, the key's rules). */
  refused: number;
  /** Calls failed with an HTTP 5xx (the nodes). */
  upstreamErrors: number;
  /** Latency bucket counts (latency-histogram.ts). */
  latency: number[];
}

const keyOf = (c: MethodStatCount) => `${c.accountId}|${c.hour}|${c.apiKeyId}|${c.network}|${c.method}`;

/**
 * Adds counted calls to their hours' rows, latency bucket by bucket. Rows are locked in one order
 * (the primary key's), so two processes flushing at once never deadlock.
 */
export async function addMethodStats(db: Db, counts: MethodStatCount[]): Promise<void> {
  if (counts.length === 0) return;
  const ordered = [...counts].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  await db
    .insertInto('rpc_method_stats')
    .values(
      ordered.map((c) => ({
        account_id: c.accountId,
        period_start: new Date(c.hour),
        period: 'hour' as const,
        api_key_id: c.apiKeyId,
        network: c.network,
        method: c.method,
        calls: c.calls,
        rpc_errors: c.rpcErrors,
        refused: c.refused,
        upstream_errors: c.upstreamErrors,
        latency: c.latency,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'period_start', 'period', 'api_key_id', 'network', 'method']).doUpdateSet({
        calls: sql`rpc_method_stats.calls + excluded.calls`,
        rpc_errors: sql`rpc_method_stats.rpc_errors + excluded.rpc_errors`,
        refused: sql`rpc_method_stats.refused + excluded.refused`,
        upstream_errors: sql`rpc_method_stats.upstream_errors + excluded.upstream_errors`,
        latency: sql`ebs_add_counts(rpc_method_stats.latency, excluded.latency)`,
      }),
    )
    .execute();
}

export interface MethodStatsFilter {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  apiKeyId?: string;
  network?: string;
}

/** Figures summed over a filter's rows: calls, errors and the merged latency histogram. */
export interface SummedStats {
  calls: number;
  errors: number;
  latency: number[];
}

const summed = {
  calls: sql<string>`sum(s.calls)::text`.as('calls'),
  errors: sql<string>`sum(s.rpc_errors + s.refused + s.upstream_errors)::text`.as('errors'),
  latency: sql<string[]>`ebs_sum_counts(s.latency)::text[]`.as('latency'),
};

const toSummed = (r: { calls: string; errors: string; latency: string[] | null }): SummedStats => ({
  calls: Number(r.calls),
  errors: Number(r.errors),
  latency: (r.latency ?? []).map(Number),
});

function matching(db: Db, accountId: string, filter: MethodStatsFilter) {
  // Hours and days never overlap (a day row replaces its hours), so one range reads both.
  let rows = db
    .selectFrom('rpc_method_stats as s')
    .where('s.account_id', '=', accountId)
    .where('s.period_start', '>=', filter.from)
    .where('s.period_start', '<', filter.to);
  if (filter.apiKeyId) rows = rows.where('s.api_key_id', '=', filter.apiKeyId);
  if (filter.network) rows = rows.where('s.network', '=', filter.network);
  return rows;
}

/** An account's figures per method and network, most called first. */
export async function readMethodStats(
  db: Db,
  accountId: string,
  filter: MethodStatsFilter,
): Promise<Array<SummedStats & { method: string; network: string }>> {
  const rows = await matching(db, accountId, filter)
    .select(['s.method', 's.network', summed.calls, summed.errors, summed.latency])
    .groupBy(['s.method', 's.network'])
    .orderBy(sql`sum(s.calls)`, 'desc')
    .orderBy('s.method')
    .orderBy('s.network')
    .execute();
  return rows.map((r) => ({ method: r.method, network: r.network, ...toSummed(r) }));
}

/** An account's figures per hour or day: calls and errors per method, and latency over all methods. */
export async function readMethodSeries(
  db: Db,
  accountId: string,
  filter: MethodStatsFilter,
  interval: 'hour' | 'day',
): Promise<{
  byMethod: Array<{ time: Date; method: string; calls: number; errors: number }>;
  latency: Array<{ time: Date; latency: number[] }>;
}> {
  // A literal, not a parameter: the select list and the grouping must be one expression.
  const time = sql<Date>`date_trunc(${sql.lit(interval)}, s.period_start, 'UTC')`;
  const [byMethod, latency] = await Promise.all([
    matching(db, accountId, filter)
      .select([time.as('time'), 's.method', summed.calls, summed.errors])
      .groupBy([time, 's.method'])
      .orderBy(time)
      .orderBy('s.method')
      .execute(),
    matching(db, accountId, filter)
      .select([time.as('time'), summed.latency])
      .groupBy(time)
      .orderBy(time)
      .execute(),
  ]);
  return {
    byMethod: byMethod.map((r) => ({
      time: new Date(r.time),
      method: r.method,
      calls: Number(r.calls),
      errors: Number(r.errors),
    })),
    latency: latency.map((r) => ({ time: new Date(r.time), latency: (r.latency ?? []).map(Number) })),
  };
}

/**
 * Rolls the hours before `before` (a day's start) into their days. The hours are deleted and their
 * sums added in one statement: a second process doing the same at once finds them gone, so nothing
 * is counted twice.
 */
export async function rollUpHours(db: Db, before: Date): Promise<number> {
  const result = await sql`
    with gone as (
      delete from rpc_method_stats where period = 'hour' and period_start < ${before} returning *
    )
    insert into rpc_method_stats as s (account_id, period_start, period, api_key_id, network, method,
      calls, rpc_errors, refused, upstream_errors, latency)
    select account_id, date_trunc('day', period_start, 'UTC'), 'day', api_key_id, network, method,
      sum(calls), sum(rpc_errors), sum(refused), sum(upstream_errors), ebs_sum_counts(latency)
    from gone
    group by account_id, date_trunc('day', period_start, 'UTC'), api_key_id, network, method
    on conflict (account_id, period_start, period, api_key_id, network, method) do update set
      calls = s.calls + excluded.calls,
      rpc_errors = s.rpc_errors + excluded.rpc_errors,
      refused = s.refused + excluded.refused,
      upstream_errors = s.upstream_errors + excluded.upstream_errors,
      latency = ebs_add_counts(s.latency, excluded.latency)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Forgets the figures of periods that started before `before`. */
export async function pruneMethodStats(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('rpc_method_stats').where('period_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
