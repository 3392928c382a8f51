import { type Kysely, sql } from 'kysely';

const UP = `
    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null unique,
      given_name text not null,
      family_name text not null,
      password_hash text not null,
      confirmed_at timestamptz,
      referral_code text,
      welcome_credit_redeemed boolean not null default false,
      mfa_enabled boolean not null default false,
      created_at timestamptz not null default now()
    );
    create table verification_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      purpose text not null check (purpose in ('SIGN_UP', 'RESET_PASSWORD')),
      code_hash text not null,
      attempts integer not null default 0,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index verification_codes_user_purpose on verification_codes (user_id, purpose, created_at desc);
    create table sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz
    );
    create index sessions_user on sessions (user_id);
    create table refresh_tokens (
      token_hash text primary key,
      session_id uuid not null references sessions(id) on delete cascade,
      created_at timestamptz not null default now(),
      used_at timestamptz
    );
    create index refresh_tokens_session on refresh_tokens (session_id);
    create table mail_outbox (
      id bigserial primary key,
      to_email text not null,
      subject text not null,
      text text not null,
      created_at timestamptz not null default now()
    );
    create index mail_outbox_to on mail_outbox (to_email, id desc);
    create table accounts (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      is_billing_api_enabled boolean not null default true,
      customer_id text,
      created_by uuid not null references users(id),
      auto_deposit_enabled boolean not null default false,
      auto_deposit_min_balance numeric(20, 6),
      auto_deposit_amount numeric(20, 6),
      created_at timestamptz not null default now()
    );
    create table account_members (
      account_id uuid not null references accounts(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      role_name text not null,
      created_at timestamptz not null default now(),
      primary key (account_id, user_id)
    );
    create index account_members_user on account_members (user_id, created_at);
    create table account_features (
      account_id uuid not null references accounts(id) on delete cascade,
      feature_name text not null,
      enabled boolean not null,
      updated_at timestamptz not null default now(),
      primary key (account_id, feature_name)
    );
    create table account_transactions (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id),
      type text not null,
      amount numeric(20, 6) not null,
      status text not null check (status in ('PENDING', 'COMPLETED', 'FAILED')),
      metadata jsonb not null default '{}'::jsonb,
      idempotency_key text unique,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index account_transactions_account on account_transactions (account_id, created_at desc);
    create table settings (
      name text primary key,
      value jsonb not null,
      updated_at timestamptz not null default now()
    );
    insert into settings (name, value) values
      ('ADD_PAYMENT_CARD', '{"mandatory": false}'),
      ('DEPOSIT', '{"minAmount": 1}');
    create table ambassadors (
      user_id uuid primary key references users(id) on delete cascade,
      code text not null unique,
      reward_rate numeric(6, 4) not null,
      balance numeric(20, 6) not null default 0,
      created_at timestamptz not null default now()
    );
`;

const DOWN = `
  drop table ambassadors;
  drop table settings;
  drop table account_transactions;
  drop table account_features;
  drop table account_members;
  drop table accounts;
  drop table mail_outbox;
  drop table refresh_tokens;
  drop table sessions;
  drop table verification_codes;
  drop table users;
`;

/** One statement per query: prepared statements take a single command. */
async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
