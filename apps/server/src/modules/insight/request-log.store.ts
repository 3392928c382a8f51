import { REQUEST_LOG_COUNT_LIMIT, type RequestLogEntry } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { findKeyNames } from '../keys/index.ts';

/** A request kept in the log: never its body, never its key's secret. */
export interface LoggedRequest {
  accountId: string;
  apiKeyId: string;
  network: string;
  methods: string[];
  httpStatus: number;
  errorCode: number | null;
  errorMessage: string | null;
  requestChars: number | null;
  failed: boolean;
  latencyMs: number;
  clientIp: string;
  origin: string | null;
  at: Date;
}

export async function addRequests(db: Db, requests: LoggedRequest[]): Promise<void> {
  if (requests.length === 0) return;
  await db
    .insertInto('rpc_request_log')
    .values(
      requests.map((r) => ({
        account_id: r.accountId,
        api_key_id: r.apiKeyId,
        network: r.network,
        methods: r.methods,
        http_status: r.httpStatus,
        error_code: r.errorCode,
        error_message: r.errorMessage,
        request_chars: r.requestChars,
        failed: r.failed,
        latency_ms: r.latencyMs,
        client_ip: r.clientIp,
        origin: r.origin,
        created_at: r.at,
      })),
    )
    .execute();
}

export interface RequestLogFilter {
  since: Date;
  failedOnly?: boolean;
  method?: string;
  apiKeyId?: string;
  network?: string;
  httpStatus?: number;
  limit: number;
  offset: number;
}

/** One page of an account's logged requests, newest first, and how many match (up to REQUEST_LOG_COUNT_LIMIT). */
export async function listRequests(
  db: Db,
  accountId: string,
  filter: RequestLogFilter,
): Promise<{ requests: RequestLogEntry[]; totalCount: number }> {
  let rows = db
    .selectFrom('rpc_request_log as r')
    .where('r.account_id', '=', accountId)
    .where('r.created_at', '>=', filter.since);
  if (filter.failedOnly) rows = rows.where('r.failed', '=', true);
  if (filter.method) rows = rows.where(sql<boolean>`r.methods @> array[${filter.method}]::text[]`);
  if (filter.apiKeyId) rows = rows.where('r.api_key_id', '=', filter.apiKeyId);
  if (filter.network) rows = rows.where('r.network', '=', filter.network);
  if (filter.httpStatus) rows = rows.where('r.http_status', '=', filter.httpStatus);
  const [page, count] = await Promise.all([
    rows
      .select([
        'r.created_at',
        'r.api_key_id',
        'r.network',
        'r.methods',
        'r.http_status',
        'r.error_code',
        'r.error_message',
        'r.request_chars',
        'r.latency_ms',
        'r.client_ip',
        'r.origin',
      ])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    // Counted up to a bound: a million rows would take longer to count than to page through.
    db
      .selectFrom(rows.select(sql`1`.as('one')).limit(REQUEST_LOG_COUNT_LIMIT).as('matched'))
      .select(sql<string>`count(*)::text`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const names = await findKeyNames(
    db,
    accountId,
    page.map((r) => r.api_key_id),
  );
  return {
    totalCount: Number(count.n),
    requests: page.map((r) => ({
      time: new Date(r.created_at).toISOString(),
      apiKeyId: r.api_key_id,
      apiKeyName: names.get(r.api_key_id) ?? '',
      network: r.network,
      methods: r.methods,
      httpStatus: r.http_status,
      errorCode: r.error_code,
      errorMessage: r.error_message,
      requestChars: r.request_chars,
      latencyMs: Number(r.latency_ms),
      clientIp: r.client_ip,
      origin: r.origin,
    })),
  };
}

/** Forgets the requests logged before `before`. */
export async function pruneRequests(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('rpc_request_log').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
