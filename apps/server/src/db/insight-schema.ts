import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

/** bigint columns travel as text (node-postgres and PGlite alike); written as numbers. */
type BigCount = ColumnType<string, number | string, number | string>;

/**
 * The gateway's per-method figures, request log and recent calls, and the alerts (migrations
 * 2026_11_27_*, 2026_11_28_0504); each network's hours for the Status page (2026_11_28_0401).
 */

export interface RpcMethodStatsTable {
  account_id: string;
  period_start: Timestamp;
  period: 'hour' | 'day' | 'week';
  api_key_id: string;
  network: string;
  method: string;
  calls: BigCount;
  rpc_errors: BigCount;
  refused: BigCount;
  upstream_errors: BigCount;
  /** The calls' compute units (migration 2026_11_28_0504). */
  compute_units: BigCount;
  /** Latency bucket counts packed in one number (latency-histogram.ts, packCounts), as text. */
  latency: ColumnType<string, string, string>;
}

export interface RpcRequestLogTable {
  id: Generated<string>;
  account_id: string;
  api_key_id: string;
  network: string;
  methods: string[];
  http_status: number;
  error_code: number | null;
  /** What the gateway answered a failed request: the refusal's or the node's error message. */
  error_message: string | null;
  /** The length of the request's body in characters (the body itself is never kept). */
  request_chars: number | null;
  failed: boolean;
  latency_ms: number;
  client_ip: string;
  origin: string | null;
  created_at: Timestamp;
}

export interface RpcRecentCallsTable {
  account_id: string;
  minute: Timestamp;
  calls: BigCount;
  errors: BigCount;
}

/** The alerts' tables (migration 2026_11_27_0201). */

export interface AccountAlertsTable {
  account_id: string;
  /** Each kind's switch and threshold: AlertSetting[]. */
  settings: ColumnType<unknown, string, string>;
  /** User ids e-mailed besides the owner. */
  recipients: ColumnType<unknown, string, string>;
  any_enabled: boolean;
  updated_at: Timestamp;
}

export interface AccountAlertStatesTable {
  account_id: string;
  kind: string;
  subject: string;
  holding: boolean;
  message: string;
  changed_at: Timestamp;
}

/** Each network's calls per hour and those no node answered (the rpc module's; the Status page). */
export interface RpcStatusHoursTable {
  network: string;
  hour: Timestamp;
  calls: BigCount;
  failed: BigCount;
}
