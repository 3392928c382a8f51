import { type Kysely, sql } from 'kysely';

/**
 * The local card processor's own tables (processor_*), apart from the console's, as a hosted
 * provider would keep them; and the console's payment_cards, which hold only what a provider
 * gives back: brand, last four digits, expiry and the provider's token.
 */
const UP = `
  create table processor_customers (
    id text primary key,
    created_at timestamptz not null default now()
  );
  create table processor_payment_methods (
    id text primary key,
    customer_id text references processor_customers(id),
    brand text not null,
    last4 text not null check (last4 ~ '^[0-9]{4}$'),
    exp_month integer not null check (exp_month between 1 and 12),
    exp_year integer not null,
    behaviour text not null check (behaviour in ('SUCCEED', 'DECLINE', 'INSUFFICIENT_FUNDS', 'CHALLENGE')),
    detached_at timestamptz,
    created_at timestamptz not null default now()
  );
  create table processor_setup_intents (
    id text primary key,
    client_secret_hash text not null,
    customer_id text not null references processor_customers(id),
    account_id uuid not null,
    status text not null check (status in ('REQUIRES_PAYMENT_METHOD', 'REQUIRES_ACTION', 'SUCCEEDED', 'FAILED')),
    payment_method_id text references processor_payment_methods(id),
    last_error text,
    created_at timestamptz not null default now()
  );
  create table processor_charges (
    id text primary key,
    customer_id text not null references processor_customers(id),
    payment_method_id text not null references processor_payment_methods(id),
    amount numeric(20, 6) not null check (amount > 0),
    currency text not null,
    description text not null,
    idempotency_key text not null unique,
    status text not null check (status in ('SUCCEEDED', 'FAILED')),
    failure_message text,
    created_at timestamptz not null default now()
  );
  create table payment_cards (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id),
    provider text not null,
    provider_token text not null,
    brand text not null,
    last4 text not null,
    exp_month integer not null,
    exp_year integer not null,
    is_default boolean not null default false,
    removed_at timestamptz,
    created_at timestamptz not null default now()
  );
  create index payment_cards_account on payment_cards (account_id) where removed_at is null;
  create unique index payment_cards_one_default on payment_cards (account_id) where is_default and removed_at is null;
  create unique index payment_cards_token on payment_cards (account_id, provider_token) where removed_at is null
`;

const DOWN = `
  drop table payment_cards;
  drop table processor_charges;
  drop table processor_setup_intents;
  drop table processor_payment_methods;
  drop table processor_customers
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
