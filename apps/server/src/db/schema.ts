import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** numeric columns travel as strings so money is never a binary float. */
type Numeric = ColumnType<string, string | number, string | number>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  given_name: string;
  family_name: string;
  password_hash: string;
  confirmed_at: NullableTimestamp;
  referral_code: string | null;
  welcome_credit_redeemed: Generated<boolean>;
  mfa_enabled: Generated<boolean>;
  created_at: Timestamp;
}

export interface VerificationCodesTable {
  id: Generated<string>;
  user_id: string;
  purpose: 'SIGN_UP' | 'RESET_PASSWORD';
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to_email: string;
  subject: string;
  text: string;
  created_at: Timestamp;
}

export interface AccountsTable {
  id: Generated<string>;
  name: string;
  is_billing_api_enabled: Generated<boolean>;
  customer_id: string | null;
  created_by: string;
  auto_deposit_enabled: Generated<boolean>;
  auto_deposit_min_balance: Numeric | null;
  auto_deposit_amount: Numeric | null;
  auto_deposit_armed: Generated<boolean>;
  auto_deposit_key: string | null;
  auto_deposit_failures: Generated<number>;
  auto_deposit_retry_at: NullableTimestamp;
  is_draft: Generated<boolean>;
  signing_secret_sealed: string | null;
  created_at: Timestamp;
}

export interface AccountInvitationsTable {
  id: Generated<string>;
  account_id: string;
  email: string;
  role_name: string;
  invited_by: string;
  created_at: Timestamp;
}

export interface SupportTicketsTable {
  id: Generated<string>;
  account_id: string;
  user_id: string;
  message: string;
  created_at: Timestamp;
}

export interface AccountMembersTable {
  account_id: string;
  user_id: string;
  role_name: string;
  created_at: Timestamp;
}

export interface AccountFeaturesTable {
  account_id: string;
  feature_name: string;
  enabled: boolean;
  updated_at: Timestamp;
}

export interface AccountTransactionsTable {
  id: Generated<string>;
  account_id: string;
  type: string;
  amount: Numeric;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  metadata: ColumnType<unknown, string | undefined, string>;
  idempotency_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SettingsTable {
  name: string;
  value: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

export interface AmbassadorsTable {
  user_id: string;
  code: string;
  reward_rate: Numeric;
  balance: ColumnType<string, string | number | undefined, string | number>;
  created_at: Timestamp;
}

export interface ProcessorCustomersTable {
  id: string;
  created_at: Timestamp;
}

export interface ProcessorPaymentMethodsTable {
  id: string;
  customer_id: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: 'SUCCEED' | 'DECLINE' | 'INSUFFICIENT_FUNDS' | 'CHALLENGE';
  detached_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface ProcessorSetupIntentsTable {
  id: string;
  client_secret_hash: string;
  customer_id: string;
  account_id: string;
  status: 'REQUIRES_PAYMENT_METHOD' | 'REQUIRES_ACTION' | 'SUCCEEDED' | 'FAILED';
  payment_method_id: string | null;
  last_error: string | null;
  created_at: Timestamp;
}

export interface ProcessorChargesTable {
  id: string;
  customer_id: string;
  payment_method_id: string;
  amount: Numeric;
  currency: string;
  description: string;
  idempotency_key: string;
  status: 'SUCCEEDED' | 'FAILED';
  failure_message: string | null;
  created_at: Timestamp;
}

export interface PaymentCardsTable {
  id: Generated<string>;
  account_id: string;
  provider: string;
  provider_token: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: Generated<boolean>;
  removed_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  account_id: string;
  name: string;
  key_hash: string;
  status: Generated<'ACTIVE' | 'INACTIVE'>;
  deleted_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ResourcePricesTable {
  resource_name: string;
  unit_price: Numeric;
  updated_at: Timestamp;
}

export interface AccountResourceUsageTable {
  id: Generated<string>;
  account_id: string;
  /** Null for token forwarding fees, which no API key incurs. */
  api_key_id: string | null;
  resource_name: string;
  /** A calendar day (UTC), as YYYY-MM-DD text. */
  date: ColumnType<string, string, string>;
  /** bigint travels as text. */
  usage: ColumnType<string, string | number, string | number>;
  unit_price: Numeric;
  status: Generated<'PENDING' | 'BILLED'>;
  transaction_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  verification_codes: VerificationCodesTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  mail_outbox: MailOutboxTable;
  accounts: AccountsTable;
  account_members: AccountMembersTable;
  account_features: AccountFeaturesTable;
  account_transactions: AccountTransactionsTable;
  settings: SettingsTable;
  ambassadors: AmbassadorsTable;
  processor_customers: ProcessorCustomersTable;
  processor_payment_methods: ProcessorPaymentMethodsTable;
  processor_setup_intents: ProcessorSetupIntentsTable;
  processor_charges: ProcessorChargesTable;
  payment_cards: PaymentCardsTable;
  account_invitations: AccountInvitationsTable;
  support_tickets: SupportTicketsTable;
  api_keys: ApiKeysTable;
  resource_prices: ResourcePricesTable;
  account_resource_usage: AccountResourceUsageTable;
  destination_wallets: DestinationWalletsTable;
  gas_fee_funding_wallets: GasFeeFundingWalletsTable;
  token_forwarding_wallets: TokenForwardingWalletsTable;
  token_forwarding_transactions: TokenForwardingTransactionsTable;
}

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
type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;

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
  created_at: Timestamp;
  updated_at: Timestamp;
}
