import { type Kysely, sql } from 'kysely';

/**
 * Token forwarding (spec B §3, ARCHITECTURE §6). Wallets hold no key material: a forwarding or
 * gas fee funding wallet's key is derived from the master seed at its key index when a transaction
 * is signed. A forward records each step (signed transactions included) before it takes the next,
 * so a restarted engine resumes it instead of sending again. At most one forward per wallet is open.
 * Usage of token forwarding fees names no API key.
 */
const UP = `
  create sequence wallet_key_index as integer minvalue 1;
  create table destination_wallets (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id) on delete cascade,
    network text not null,
    name text not null,
    address text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create unique index destination_wallets_address on destination_wallets (account_id, network, lower(address));
  create table gas_fee_funding_wallets (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id) on delete cascade,
    network text not null,
    name text not null,
    key_index integer not null unique,
    address text not null,
    balance numeric not null default 0,
    balance_checked_at timestamptz not null default now(),
    next_nonce integer not null default 0,
    low_balance_notified_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create index gas_fee_funding_wallets_account on gas_fee_funding_wallets (account_id, created_at) where deleted_at is null;
  create table token_forwarding_wallets (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id) on delete cascade,
    network text not null,
    token text not null,
    smart_contract_address text,
    token_decimals integer not null default 18,
    key_index integer not null unique,
    address text not null,
    status text not null default 'ENABLED' check (status in ('ENABLED', 'DISABLED')),
    status_reason text,
    minimum_forwarding_amount numeric not null check (minimum_forwarding_amount >= 0),
    destination_address text not null,
    gas_fee_funding_wallet_id uuid references gas_fee_funding_wallets(id),
    webhook_url text,
    webhook_header text,
    webhook_header_value text,
    balance numeric,
    balance_checked_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create index token_forwarding_wallets_account on token_forwarding_wallets (account_id, created_at) where deleted_at is null;
  create index token_forwarding_wallets_scan on token_forwarding_wallets (network) where deleted_at is null and status = 'ENABLED';
  create table token_forwarding_transactions (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id) on delete cascade,
    wallet_id uuid not null references token_forwarding_wallets(id),
    network text not null,
    token text not null,
    smart_contract_address text,
    from_address text not null,
    to_address text not null,
    amount numeric not null,
    original_balance numeric not null,
    status text not null default 'PENDING'
      check (status in ('PENDING', 'FUNDING_GAS', 'SENDING', 'CONFIRMING', 'COMPLETED', 'FAILED')),
    gas_limit numeric,
    gas_price numeric,
    gas_tx_hash text,
    gas_raw_tx text,
    tx_hash text,
    raw_tx text,
    confirmations integer not null default 0,
    receipt jsonb,
    error text,
    attempts integer not null default 0,
    next_step_at timestamptz not null default now(),
    lease_owner text,
    lease_until timestamptz,
    webhook_id text,
    webhook_payload text,
    webhook_status text not null default 'NONE' check (webhook_status in ('NONE', 'PENDING', 'DELIVERED', 'FAILED')),
    webhook_attempt integer not null default 0,
    webhook_log jsonb not null default '[]',
    webhook_next_at timestamptz,
    webhook_lease_until timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create unique index token_forwarding_transactions_open on token_forwarding_transactions (wallet_id)
    where status not in ('COMPLETED', 'FAILED');
  create index token_forwarding_transactions_account on token_forwarding_transactions (account_id, created_at desc);
  create index token_forwarding_transactions_wallet on token_forwarding_transactions (wallet_id, created_at desc);
  create index token_forwarding_transactions_work on token_forwarding_transactions (next_step_at)
    where status not in ('COMPLETED', 'FAILED');
  create index token_forwarding_transactions_webhooks on token_forwarding_transactions (webhook_next_at)
    where webhook_status = 'PENDING';
  alter table account_resource_usage alter column api_key_id drop not null;
  drop index account_resource_usage_open;
  create unique index account_resource_usage_open
    on account_resource_usage (account_id, api_key_id, resource_name, date) nulls not distinct where status = 'PENDING'
`;

const DOWN = `
  drop index account_resource_usage_open;
  delete from account_resource_usage where api_key_id is null;
  alter table account_resource_usage alter column api_key_id set not null;
  create unique index account_resource_usage_open
    on account_resource_usage (account_id, api_key_id, resource_name, date) where status = 'PENDING';
  drop table token_forwarding_transactions;
  drop table token_forwarding_wallets;
  drop table gas_fee_funding_wallets;
  drop table destination_wallets;
  drop sequence wallet_key_index
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
