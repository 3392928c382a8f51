import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { packCounts, unpackCounts } from './latency-histogram.ts';

/** One account's calls of one method through one key and network in one hour (UTC). */
export interface MethodStatCount {
  accountId: string;
  apiKeyId: string;
  network: string;
  method: string;
  /** The hour's start, ms since the epoch. */
  hour: number;
  calls: number;
  /** The calls' compute units. */
  computeUnits: number;
  /** JSON-RPC error answers. */
  rpcErrors: number;
  /** Calls refused with an HTTP 4xx (limits, the key's rules). */
  refused: number;
  /** Calls failed with an HTTP 5xx (the nodes). */
  upstreamErrors: number;
  /** Latency bucket counts (latency-histogram.ts). */
  latency: number[];
}

/** The key id of the rows that hold every key of an account together. */
export const ALL_KEYS = '00000000-0000-0000-0000-000000000000';
/** The network of the day rows that hold every network together (no network's path is this). */
export const ALL_NETWORKS = '*';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** The Monday (UTC) a day's week starts on. */
export const weekOf = (day: number) => day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;

interface Row {
  accountId: string;
  apiKeyId: string;
  network: string;
  method: string;
  start: number;
  period: 'hour' | 'day' | 'week';
  calls: number;
  computeUnits: number;
  rpcErrors: number;
  refused: number;
  upstreamErrors: number;
  latency: number[];
}

const rowKey = (r: Row) => `${r.accountId}|${r.period}|${r.apiKeyId}|${r.start}|${r.network}|${r.method}`;

/**
 * The rows a flush adds to: each hour of each key; each day and week of each key; each day and week
 * of the account's keys together (what the Analytics page reads for whole days: a row per week,
 * network and method, and per day at a range's ends, whatever the number of keys); and each day of
 * each key and of all keys over all networks together (the charts of every network read a row per
 * day and method, not one per network too). Summed here, so each row is written once per flush.
 */
function rowsOf(counts: MethodStatCount[]): Row[] {
  const rows = new Map<string, Row>();
  const add = (
    count: MethodStatCount,
    apiKeyId: string,
    start: number,
    period: Row['period'],
    network = count.network,
  ) => {
    const row: Row = { ...count, apiKeyId, network, start, period, latency: [...count.latency] };
    const key = rowKey(row);
    const known = rows.get(key);
    if (!known) {
      rows.set(key, row);
      return;
    }
    known.calls += row.calls;
    known.computeUnits += row.computeUnits;
    known.rpcErrors += row.rpcErrors;
    known.refused += row.refused;
    known.upstreamErrors += row.upstreamErrors;
    for (let i = 0; i < row.latency.length; i++) known.latency[i] = (known.latency[i] ?? 0) + (row.latency[i] ?? 0);
  };
  for (const count of counts) {
    const day = count.hour - (count.hour % DAY_MS);
    add(count, count.apiKeyId, count.hour, 'hour');
    add(count, count.apiKeyId, day, 'day');
    add(count, ALL_KEYS, day, 'day');
    add(count, count.apiKeyId, weekOf(day), 'week');
    add(count, ALL_KEYS, weekOf(day), 'week');
    add(count, count.apiKeyId, day, 'day', ALL_NETWORKS);
    add(count, ALL_KEYS, day, 'day', ALL_NETWORKS);
  }
  // Rows are locked in one order (the primary key's), so two processes flushing at once never deadlock.
  return [...rows.values()].sort((a, b) => (rowKey(a) < rowKey(b) ? -1 : rowKey(a) > rowKey(b) ? 1 : 0));
}

/** Adds counted calls to their rows (rowsOf), latency bucket by bucket. */
export async function addMethodStats(db: Db, counts: MethodStatCount[]): Promise<void> {
  if (counts.length === 0) return;
  await db
    .insertInto('rpc_method_stats')
    .values(
      rowsOf(counts).map((r) => ({
        account_id: r.accountId,
        period_start: new Date(r.start),
        period: r.period,
        api_key_id: r.apiKeyId,
        network: r.network,
        method: r.method,
        calls: r.calls,
        compute_units: r.computeUnits,
        rpc_errors: r.rpcErrors,
        refused: r.refused,
        upstream_errors: r.upstreamErrors,
        latency: packCounts(r.latency),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'period', 'api_key_id', 'period_start', 'network', 'method']).doUpdateSet({
        calls: sql`rpc_method_stats.calls + excluded.calls`,
        compute_units: sql`rpc_method_stats.compute_units + excluded.compute_units`,
        rpc_errors: sql`rpc_method_stats.rpc_errors + excluded.rpc_errors`,
        refused: sql`rpc_method_stats.refused + excluded.refused`,
        upstream_errors: sql`rpc_method_stats.upstream_errors + excluded.upstream_errors`,
        latency: sql`rpc_method_stats.latency + excluded.latency`,
      }),
    )
    .execute();
}

export interface MethodStatsFilter {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  /** Hours (the last hours) or whole days. */
  period: 'hour' | 'day';
  apiKeyId?: string;
  network?: string;
}

/**
 * Figures summed over a filter's rows: calls, their compute units, errors (the method's own:
 * JSON-RPC errors and the nodes' failures), calls the gateway refused (the key's rules and limits,
 * bad requests: HTTP 4xx), and the merged latency histogram.
 */
export interface SummedStats {
  calls: number;
  computeUnits: number;
  errors: number;
  refused: number;
  latency: number[];
}

/** Calls, units, errors and the histograms summed: packed (packCounts), one numeric sum per row, not one per bucket. */
const summed = () => [
  sql<string>`sum(s.calls)::text`.as('calls'),
  sql<string>`sum(s.compute_units)::text`.as('computeUnits'),
  sql<string>`sum(s.rpc_errors + s.upstream_errors)::text`.as('errors'),
  sql<string>`sum(s.refused)::text`.as('refused'),
  sql<string | null>`sum(s.latency)::text`.as('latency'),
];

const latencyOf = (r: { latency: string | null }) => unpackCounts(r.latency ?? '0');

const toSummed = (r: {
  calls: string;
  computeUnits: string;
  errors: string;
  refused: string;
  latency: string | null;
}): SummedStats => ({
  calls: Number(r.calls),
  computeUnits: Number(r.computeUnits),
  errors: Number(r.errors),
  refused: Number(r.refused),
  latency: latencyOf(r),
});

/**
 * The rows a read sums: whole weeks from their own rows where `by` says so (the methods' figures),
 * and a day's figures over all networks from their own rows where it says so (the charts).
 */
function matching(
  db: Db,
  accountId: string,
  filter: MethodStatsFilter,
  by: { weeks?: boolean; allNetworks?: boolean } = {},
) {
  let rows = db.selectFrom('rpc_method_stats as s').where('s.account_id', '=', accountId);
  // Days of all keys have rows of their own; hours are summed over the keys' rows.
  if (filter.apiKeyId) rows = rows.where('s.api_key_id', '=', filter.apiKeyId);
  else rows = rows.where('s.api_key_id', filter.period === 'day' ? '=' : '!=', ALL_KEYS);
  if (filter.network) rows = rows.where('s.network', '=', filter.network);
  else if (by.allNetworks && filter.period === 'day') rows = rows.where('s.network', '=', ALL_NETWORKS);
  else rows = rows.where('s.network', '!=', ALL_NETWORKS);
  const from = filter.from.getTime();
  const to = filter.to.getTime();
  const firstWeek = weekOf(from) === from ? from : weekOf(from) + WEEK_MS;
  const lastWeek = weekOf(to);
  if (!by.weeks || filter.period !== 'day' || firstWeek >= lastWeek) {
    return rows
      .where('s.period', '=', filter.period)
      .where('s.period_start', '>=', filter.from)
      .where('s.period_start', '<', filter.to);
  }
  // The whole weeks of a range from their own rows, the days before and after them from days'.
  return rows.where((eb) =>
    eb.or([
      eb.and([
        eb('s.period', '=', 'week'),
        eb('s.period_start', '>=', new Date(firstWeek)),
        eb('s.period_start', '<', new Date(lastWeek)),
      ]),
      eb.and([
        eb('s.period', '=', 'day'),
        eb('s.period_start', '>=', filter.from),
        eb('s.period_start', '<', new Date(firstWeek)),
      ]),
      eb.and([
        eb('s.period', '=', 'day'),
        eb('s.period_start', '>=', new Date(lastWeek)),
        eb('s.period_start', '<', filter.to),
      ]),
    ]),
  );
}

/** An account's figures per method and network, most called first. */
export async function readMethodStats(
  db: Db,
  accountId: string,
  filter: MethodStatsFilter,
): Promise<Array<SummedStats & { method: string; network: string }>> {
  const rows = await matching(db, accountId, filter, { weeks: true })
    .select(['s.method', 's.network', ...summed()])
    .groupBy(['s.method', 's.network'])
    .orderBy(sql`sum(s.calls)`, 'desc')
    .orderBy('s.method')
    .orderBy('s.network')
    .execute();
  return rows.map((r) => ({ method: r.method, network: r.network, ...toSummed(r) }));
}

/** One method's figures of one hour or day in a chart. */
export interface MethodPoint {
  time: Date;
  method: string;
  calls: number;
  errors: number;
  refused: number;
  computeUnits: number;
}

/**
 * An account's figures per hour or day: calls, errors and compute units per method, and latency
 * over all methods.
 * One row per hour or day, its methods' figures joined in one text: a few hundred points read as
 * rows cost PGlite about 12 µs each, more than summing them. Method names hold neither a space nor
 * a comma (methodName).
 */
export async function readMethodSeries(
  db: Db,
  accountId: string,
  filter: MethodStatsFilter,
): Promise<{
  byMethod: MethodPoint[];
  latency: Array<{ time: Date; latency: number[] }>;
}> {
  const perMethod = matching(db, accountId, filter, { allNetworks: true })
    .select([
      's.period_start as time',
      's.method',
      sql<string>`sum(s.calls)`.as('calls'),
      sql<string>`sum(s.rpc_errors + s.upstream_errors)`.as('errors'),
      sql<string>`sum(s.refused)`.as('refused'),
      sql<string>`sum(s.compute_units)`.as('units'),
      sql<string>`sum(s.latency)`.as('latency'),
    ])
    .groupBy(['s.period_start', 's.method']);
  const rows = await db
    .selectFrom(perMethod.as('m'))
    .select([
      'm.time',
      sql<string | null>`sum(m.latency)::text`.as('latency'),
      sql<string>`string_agg(m.method || ' ' || m.calls || ' ' || m.errors || ' ' || m.refused || ' ' || m.units, ',' order by m.method)`.as(
        'methods',
      ),
    ])
    .groupBy('m.time')
    .orderBy('m.time')
    .execute();
  const byMethod: MethodPoint[] = [];
  for (const row of rows) {
    const time = new Date(row.time);
    for (const figures of row.methods.split(',')) {
      const [method = '', calls, errors, refused, units] = figures.split(' ');
      byMethod.push({
        time,
        method,
        calls: Number(calls),
        errors: Number(errors),
        refused: Number(refused),
        computeUnits: Number(units),
      });
    }
  }
  return { byMethod, latency: rows.map((r) => ({ time: new Date(r.time), latency: latencyOf(r) })) };
}

/** Forgets the rows of one period kind that started before `before`. */
export async function pruneMethodStats(db: Db, period: Row['period'], before: Date): Promise<number> {
  const result = await db
    .deleteFrom('rpc_method_stats')
    .where('period', '=', period)
    .where('period_start', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
