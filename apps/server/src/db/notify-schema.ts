import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

/** The address-activity webhook tables (migration 2026_11_28_0601). bigint columns read as text. */

export interface NotifyWebhooksTable {
  id: Generated<string>;
  account_id: string;
  name: string;
  network: string;
  url: string;
  categories: string[];
  confirmations: number;
  status: Generated<string>;
  disabled_reason: string | null;
  address_count: Generated<number>;
  failing_since: NullableTimestamp;
  deleted_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface NotifyAddressesTable {
  webhook_id: string;
  address: string;
}

export interface NotifyAddressLogTable {
  seq: Generated<string>;
  network: string;
  webhook_id: string;
  address: string;
  added: boolean;
  created_at: Generated<Date>;
}

export interface NotifyScannersTable {
  network: string;
  next_block: string | number | null;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  updated_at: Generated<Date>;
}

export interface NotifyBlocksTable {
  network: string;
  block_number: string | number;
  hash: string;
  parent_hash: string;
}

export interface NotifyReplaysTable {
  id: Generated<string>;
  webhook_id: string;
  network: string;
  from_block: string | number;
  to_block: string | number;
  next_block: string | number;
  status: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface NotifyDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  account_id: string;
  network: string;
  kind: string;
  replay: Generated<boolean>;
  event_id: string;
  message_id: string;
  block_number: string | number;
  block_hash: string;
  activity_count: number;
  /** Which part of a block's activity (1, 2, …) when it comes in parts; 0 when whole. */
  part: Generated<number>;
  payload: string;
  status: string;
  attempt: Generated<number>;
  next_at: NullableTimestamp;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  confirm_at_block: string | number | null;
  confirmed_at: NullableTimestamp;
  removed_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface NotifyAttemptsTable {
  delivery_id: string | number;
  attempt: number;
  at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}
