import { type Kysely, sql } from 'kysely';

/**
 * API keys (stored only as a SHA-256 hash of the key), the price of one request per usage
 * resource, and metered usage: one open (PENDING) record per account, key, resource and day that
 * the gateway's flushes add to, closed (BILLED) by the billing job with the ledger row that
 * charged it. Drafts are deleted with their keys; usage of a deleted key keeps its record.
 */
const UP = `
  create table api_keys (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id) on delete cascade,
    name text not null,
    key_hash text not null,
    status text not null default 'ACTIVE' check (status in ('ACTIVE', 'INACTIVE')),
    deleted_at timestamptz,
    created_by uuid references users(id) on delete set null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create index api_keys_account on api_keys (account_id, created_at) where deleted_at is null;
  create table resource_prices (
    resource_name text primary key,
    unit_price numeric(20, 10) not null check (unit_price >= 0),
    updated_at timestamptz not null default now()
  );
  create table account_resource_usage (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id) on delete cascade,
    api_key_id uuid not null references api_keys(id) on delete cascade,
    resource_name text not null,
    date date not null,
    usage bigint not null check (usage >= 0),
    unit_price numeric(20, 10) not null check (unit_price >= 0),
    status text not null default 'PENDING' check (status in ('PENDING', 'BILLED')),
    transaction_id uuid references account_transactions(id),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create unique index account_resource_usage_open
    on account_resource_usage (account_id, api_key_id, resource_name, date) where status = 'PENDING';
  create index account_resource_usage_account on account_resource_usage (account_id, date desc);
  create index account_resource_usage_pending on account_resource_usage (date) where status = 'PENDING'
`;

const DOWN = `
  drop table account_resource_usage;
  drop table resource_prices;
  drop table api_keys
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
