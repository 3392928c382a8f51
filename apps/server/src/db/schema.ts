import type { ColumnType, Generated } from 'kysely';
import type { NullableNumeric, NullableTimestamp, Numeric, Timestamp } from './column-types.ts';
import type {
  DestinationWalletsTable,
  GasFeeFundingWalletsTable,
  TokenForwardingTransactionsTable,
  TokenForwardingWalletsTable,
} from './forwarding-schema.ts';
import type {
  SignInChallengesTable,
  ThirdPartySignInsTable,
  TwoFactorRecoveryCodesTable,
  TwoFactorSecretsTable,
  UserIdentitiesTable,
} from './identity-schema.ts';
import type {
  AccountAlertStatesTable,
  AccountAlertsTable,
  RpcMethodStatsTable,
  RpcRecentCallsTable,
  RpcRequestLogTable,
  RpcStatusHoursTable,
} from './insight-schema.ts';
import type {
  NotifyAddressesTable,
  NotifyAddressLogTable,
  NotifyAttemptsTable,
  NotifyBlocksTable,
  NotifyDeliveriesTable,
  NotifyReplaysTable,
  NotifyScannersTable,
  NotifyWebhooksTable,
} from './notify-schema.ts';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  given_name: string;
  family_name: string;
  /** Null for a user who signed up with a third-party provider and never set a password. */
  password_hash: string | null;
  confirmed_at: NullableTimestamp;
  referral_code: string | null;
  welcome_credit_redeemed: Generated<boolean>;
  mfa_enabled: Generated<boolean>;
  created_at: Timestamp;
}

export interface SignUpAttemptsTable {
  token_hash: string;
  user_id: string;
  password_hash: string;
  given_name: string;
  family_name: string;
  referral_code: string | null;
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
  /** USD; the gateway refuses calls once this month's RPC usage reaches it (null: no cap). */
  monthly_cap_usd: NullableNumeric;
  /** USD; Auto Pay deposits at most this much a calendar month (null: no limit). */
  auto_pay_monthly_max_usd: NullableNumeric;
  is_draft: Generated<boolean>;
  signing_secret_sealed: string | null;
  previous_signing_secret_sealed: string | null;
  signing_secret_rotated_at: NullableTimestamp;
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
  /** The invitation the member joined by, if any (it is used up then): removing its row removes the member. */
  invitation_id: string | null;
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
  created_at: Timestamp;
}

export interface AmbassadorRewardsTable {
  transaction_id: string;
  ambassador_user_id: string;
  referred_user_id: string;
  deposit_amount: Numeric;
  reward_rate: Numeric;
  amount: Numeric;
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

/** A refund of a local processor charge; a charge's refunds add up to at most its amount. */
export interface ProcessorRefundsTable {
  id: string;
  charge_id: string;
  amount: Numeric;
  created_at: Timestamp;
}

/** A card provider's event already taken (its id), so a redelivery changes nothing. */
export interface CardProviderEventsTable {
  id: string;
  type: string;
  received_at: Timestamp;
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
  /** JSON arrays of strings, written as JSON text; empty: any. */
  allowed_origins: ColumnType<string[], string | undefined, string>;
  allowed_ips: ColumnType<string[], string | undefined, string>;
  allowed_methods: ColumnType<string[], string | undefined, string>;
  allowed_contracts: ColumnType<string[], string | undefined, string>;
  requests_per_second: number | null;
  requests_per_day: number | null;
  compute_units_per_second: number | null;
  compute_units_per_day: number | null;
  jwt_required: Generated<boolean>;
  expires_at: NullableTimestamp;
  /** The secret a roll replaced, valid until previous_key_expires_at. */
  previous_key_hash: string | null;
  previous_key_expires_at: NullableTimestamp;
}

export interface ApiKeyJwtKeysTable {
  id: Generated<string>;
  api_key_id: string;
  algorithm: 'RS256' | 'ES256';
  public_key_pem: string;
  created_at: Timestamp;
}

export interface ResourcePricesTable {
  resource_name: string;
  unit_price: Numeric;
  updated_at: Timestamp;
}

/** The operator's compute units of a price class, of a method, or of a cached call (`cached`). */
export interface ComputeUnitPricesTable {
  name: string;
  compute_units: number;
  updated_at: Timestamp;
}

/** Kept by triggers on account_transactions (migration 0011): one row per account that has any. */
export interface AccountLedgerTotalsTable {
  account_id: string;
  /** Rows of the transaction history: all but FAILED. bigint travels as text. */
  listed_count: ColumnType<string, never, never>;
  /** Sum of the COMPLETED amounts. */
  balance: ColumnType<string, never, never>;
  /** Sum of the PENDING withdrawals, as a positive amount. */
  pending_withdrawals: ColumnType<string, never, never>;
}

/** Kept by triggers on account_resource_usage (migration 0011). */
export interface AccountUsageTotalsTable {
  account_id: string;
  record_count: ColumnType<string, never, never>;
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
  /**
   * The calls' compute units (bigint as text); the record's price is these × unit_price. Null for
   * token forwards, priced per forward: usage × unit_price (migration 2026_11_28_0501).
   */
  compute_units: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  /** USD per compute unit; per forward for token forwards. */
  unit_price: Numeric;
  status: Generated<'PENDING' | 'BILLED'>;
  transaction_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sign_up_attempts: SignUpAttemptsTable;
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
  ambassador_rewards: AmbassadorRewardsTable;
  processor_customers: ProcessorCustomersTable;
  processor_payment_methods: ProcessorPaymentMethodsTable;
  processor_setup_intents: ProcessorSetupIntentsTable;
  processor_charges: ProcessorChargesTable;
  processor_refunds: ProcessorRefundsTable;
  card_provider_events: CardProviderEventsTable;
  payment_cards: PaymentCardsTable;
  account_invitations: AccountInvitationsTable;
  support_tickets: SupportTicketsTable;
  api_keys: ApiKeysTable;
  api_key_jwt_keys: ApiKeyJwtKeysTable;
  resource_prices: ResourcePricesTable;
  compute_unit_prices: ComputeUnitPricesTable;
  account_resource_usage: AccountResourceUsageTable;
  account_ledger_totals: AccountLedgerTotalsTable;
  account_usage_totals: AccountUsageTotalsTable;
  destination_wallets: DestinationWalletsTable;
  gas_fee_funding_wallets: GasFeeFundingWalletsTable;
  token_forwarding_wallets: TokenForwardingWalletsTable;
  token_forwarding_transactions: TokenForwardingTransactionsTable;
  notify_webhooks: NotifyWebhooksTable;
  notify_addresses: NotifyAddressesTable;
  notify_address_log: NotifyAddressLogTable;
  notify_scanners: NotifyScannersTable;
  notify_blocks: NotifyBlocksTable;
  notify_replays: NotifyReplaysTable;
  notify_deliveries: NotifyDeliveriesTable;
  notify_attempts: NotifyAttemptsTable;
  two_factor_secrets: TwoFactorSecretsTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  user_identities: UserIdentitiesTable;
  third_party_sign_ins: ThirdPartySignInsTable;
  rpc_method_stats: RpcMethodStatsTable;
  rpc_request_log: RpcRequestLogTable;
  rpc_recent_calls: RpcRecentCallsTable;
  rpc_status_hours: RpcStatusHoursTable;
  account_alerts: AccountAlertsTable;
  account_alert_states: AccountAlertStatesTable;
}
