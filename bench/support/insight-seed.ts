// The gateway's insight at scale for the console API benchmark: each measured account's request
// log (one logged request per transaction: 1 000 000 for the largest, over the last 6 days, so that
// all are still in the log's week when measured; one in ten failed) and its per-method figures (ten counted calls per transaction: 10 000 000), in the
// rows the gateway's flushes would leave: each key's hours of the last 7 days, each key's days and
// weeks and all keys' days and weeks of the last 90, for 2 keys × 10 networks × 20 methods, and
// those days over all networks together.
import { RPC_NETWORKS } from '@ebs/contract';
import { type RawBuilder, sql } from 'kysely';
import { ALL_KEYS, ALL_NETWORKS, PACKED_BUCKET_DIGITS } from '../../apps/server/src/modules/insight/insight.service.ts';

export const INSIGHT_METHODS = [
  'eth_call',
  'eth_getBalance',
  'eth_blockNumber',
  'eth_chainId',
  'eth_getLogs',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getBlockByNumber',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_sendRawTransaction',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_feeHistory',
  'eth_maxPriorityFeePerGas',
  'net_version',
  'eth_getBlockByHash',
  'eth_syncing',
  'web3_clientVersion',
] as const;
export const INSIGHT_KEYS = 2;
/** The (method, network) pairs an account's figures hold. */
export const INSIGHT_PAIRS = INSIGHT_METHODS.length * RPC_NETWORKS.length;
export const LOGGED_PER_TRANSACTION = 1;
export const COUNTED_PER_TRANSACTION = 10;
/** One logged request in this many failed. */
export const FAILED_EVERY = 10;

const METHODS = sql.raw(`array[${INSIGHT_METHODS.map((m) => `'${m}'`).join(', ')}]`);
const NETWORKS = sql.raw(`array[${RPC_NETWORKS.map((n) => `'${n.path}'`).join(', ')}]`);
const ALL_NETWORKS_ONLY = sql.raw(`array['${ALL_NETWORKS}']`);
const GROUPS = INSIGHT_KEYS * INSIGHT_PAIRS;
const HOURLY_DAYS = 7;
const DAYS = 90;
const WEEKS = Math.ceil(DAYS / 7);

/**
 * The statements that seed one account's insight; `keyId(k)` is the SQL of its k-th key's id.
 * Latency lies in four buckets around 10 ms (half, three tenths, three twentieths, the rest).
 */
export function insightStatements(
  accountId: RawBuilder<unknown>,
  keyId: (k: RawBuilder<unknown>) => RawBuilder<unknown>,
  transactions: number,
): RawBuilder<unknown>[] {
  const logged = transactions * LOGGED_PER_TRANSACTION;
  // A key's calls of one method on one network in one day, and in one hour of it.
  const perDay = Math.max(24, Math.round((transactions * COUNTED_PER_TRANSACTION) / (DAYS * GROUPS)));
  const perHour = Math.round(perDay / 24);
  // Packed as the flushes write it (packCounts): bucket i's count times 10^(16·i).
  const inBucket = (bucket: number, count: RawBuilder<unknown>) =>
    sql`(${count})::numeric * ${sql.raw(`1e${PACKED_BUCKET_DIGITS * bucket}`)}`;
  const latency = (calls: RawBuilder<unknown>) =>
    sql.join(
      [
        inBucket(25, sql`${calls} / 2`),
        inBucket(26, sql`${calls} * 3 / 10`),
        inBucket(27, sql`${calls} * 3 / 20`),
        inBucket(28, sql`${calls} - ${calls} / 2 - ${calls} * 3 / 10 - ${calls} * 3 / 20`),
      ],
      sql` + `,
    );
  const stats = (
    period: 'hour' | 'day' | 'week',
    start: RawBuilder<unknown>,
    key: RawBuilder<unknown>,
    calls: number,
    networks = NETWORKS,
  ) => {
    const n = sql.lit(calls);
    return sql`select ${accountId}, ${start}, ${sql.lit(period)}, ${key}, n.network, m.method, ${n}::bigint, ${n} / 50, ${n} / 100, 0, ${latency(n)}
      from unnest(${networks}) n(network) cross join unnest(${METHODS}) m(method)`;
  };
  const day = sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - make_interval(days => d)`;
  const hour = sql`date_trunc('hour', now()) - make_interval(hours => h)`;
  const week = sql`date_trunc('week', now() at time zone 'UTC') at time zone 'UTC' - make_interval(weeks => w)`;
  const keys = sql`generate_series(0, ${sql.lit(INSIGHT_KEYS - 1)}) k`;
  const columns = sql`(account_id, period_start, period, api_key_id, network, method, calls, rpc_errors, refused, upstream_errors, latency)`;
  return [
    sql`insert into rpc_request_log (account_id, api_key_id, network, methods, http_status, error_code, failed, latency_ms, client_ip, origin, created_at)
      select ${accountId}, ${keyId(sql`g % ${sql.lit(INSIGHT_KEYS)}`)}, (${NETWORKS})[g % ${sql.lit(RPC_NETWORKS.length)} + 1],
        array[(${METHODS})[g % ${sql.lit(INSIGHT_METHODS.length)} + 1]],
        case when g % ${sql.lit(FAILED_EVERY * 2)} = 0 then 429 else 200 end,
        case when g % ${sql.lit(FAILED_EVERY * 2)} = 0 then -32005 when g % ${sql.lit(FAILED_EVERY)} = 0 then -32000 end,
        g % ${sql.lit(FAILED_EVERY)} = 0, 1 + (g % 50), '203.0.113.' || (g % 250), 'https://dapp.example',
        now() - make_interval(secs => g * ${sql.lit(((HOURLY_DAYS - 1) * 86_400) / logged)})
      from generate_series(0, ${sql.lit(logged - 1)}) g`,
    // Each key's hours of the last 7 days, each key's days and all keys' days of the last 90.
    sql`insert into rpc_method_stats ${columns}
      select s.* from generate_series(0, ${sql.lit(HOURLY_DAYS * 24)}) h cross join ${keys}
      cross join lateral (${stats('hour', hour, keyId(sql`k`), perHour)}) s`,
    sql`insert into rpc_method_stats ${columns}
      select s.* from generate_series(0, ${sql.lit(DAYS - 1)}) d cross join ${keys}
      cross join lateral (${stats('day', day, keyId(sql`k`), perDay)}) s`,
    sql`insert into rpc_method_stats ${columns}
      select s.* from generate_series(0, ${sql.lit(DAYS - 1)}) d
      cross join lateral (${stats('day', day, sql.raw(`'${ALL_KEYS}'::uuid`), perDay * INSIGHT_KEYS)}) s`,
    // The same days over all networks together.
    sql`insert into rpc_method_stats ${columns}
      select s.* from generate_series(0, ${sql.lit(DAYS - 1)}) d cross join ${keys}
      cross join lateral (${stats('day', day, keyId(sql`k`), perDay * RPC_NETWORKS.length, ALL_NETWORKS_ONLY)}) s`,
    sql`insert into rpc_method_stats ${columns}
      select s.* from generate_series(0, ${sql.lit(DAYS - 1)}) d
      cross join lateral (${stats('day', day, sql.raw(`'${ALL_KEYS}'::uuid`), perDay * INSIGHT_KEYS * RPC_NETWORKS.length, ALL_NETWORKS_ONLY)}) s`,
    // Each key's weeks and all keys' weeks (Mondays, UTC) back to the oldest day.
    sql`insert into rpc_method_stats ${columns}
      select s.* from generate_series(0, ${sql.lit(WEEKS)}) w cross join ${keys}
      cross join lateral (${stats('week', week, keyId(sql`k`), perDay * 7)}) s`,
    sql`insert into rpc_method_stats ${columns}
      select s.* from generate_series(0, ${sql.lit(WEEKS)}) w
      cross join lateral (${stats('week', week, sql.raw(`'${ALL_KEYS}'::uuid`), perDay * 7 * INSIGHT_KEYS)}) s`,
  ];
}
