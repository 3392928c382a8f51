import type { ColumnType, Generated } from 'kysely';
import type { NullableNumeric, NullableTimestamp, Numeric, Timestamp } from './column-types.ts';

/** The token forwarding tables (migration 0007). */

export interface DestinationWalletsTable {
  id: Generated<string>;
  account_id: string;
  network: string;
  name: string;
  address: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GasFeeFundingWalletsTable {
  id: Generated<string>;
  account_id: string;
  network: string;
  name: string;
  key_index: number;
  address: string;
  balance: Generated<string>;
  balance_checked_at: Timestamp;
  next_nonce: Generated<number>;
  low_balance_notified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TokenForwardingWalletsTable {
  id: Generated<string>;
  account_id: string;
  network: string;
  token: string;
  smart_contract_address: string | null;
  token_decimals: Generated<number>;
  key_index: number;
  address: string;
  status: Generated<'ENABLED' | 'DISABLED'>;
  status_reason: string | null;
  minimum_forwarding_amount: Numeric;
  destination_address: string;
  gas_fee_funding_wallet_id: string | null;
  webhook_url: string | null;
  webhook_header: string | null;
  /** Sealed with the data key. */
  webhook_header_value: string | null;
  balance: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  balance_checked_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

type ForwardStatusColumn = 'PENDING' | 'FUNDING_GAS' | 'SENDING' | 'CONFIRMING' | 'COMPLETED' | 'FAILED';

export interface TokenForwardingTransactionsTable {
  id: Generated<string>;
  account_id: string;
  wallet_id: string;
  network: string;
  token: string;
  smart_contract_address: string | null;
  from_address: string;
  to_address: string;
  amount: Numeric;
  original_balance: Numeric;
  status: Generated<ForwardStatusColumn>;
  gas_limit: NullableNumeric;
  gas_price: NullableNumeric;
  gas_tx_hash: string | null;
  gas_raw_tx: string | null;
  tx_hash: string | null;
  raw_tx: string | null;
  confirmations: Generated<number>;
  receipt: ColumnType<unknown, string | null | undefined, string | null>;
  error: string | null;
  attempts: Generated<number>;
  next_step_at: Timestamp;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  webhook_id: string | null;
  webhook_payload: string | null;
  webhook_status: Generated<'NONE' | 'PENDING' | 'DELIVERED' | 'FAILED'>;
  webhook_attempt: Generated<number>;
  webhook_log: ColumnType<unknown, string | undefined, string>;
  webhook_next_at: NullableTimestamp;
  webhook_lease_until: NullableTimestamp;
  webhook_lease_owner: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
