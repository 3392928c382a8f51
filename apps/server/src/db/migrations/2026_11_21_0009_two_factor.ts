import { type Kysely, sql } from 'kysely';

/**
 * Two-factor sign-in (TOTP). A user has at most one authenticator secret, sealed with the data key;
 * it counts only once confirmed with a code (users.mfa_enabled says so). The last time step whose
 * code was accepted is kept so a code cannot be used twice. Recovery codes and the second-step
 * challenges of sign-in are stored as hashes only.
 */
const UP = `
  create table two_factor_secrets (
    user_id uuid primary key references users(id) on delete cascade,
    secret_sealed text not null,
    confirmed_at timestamptz,
    last_used_step bigint,
    created_at timestamptz not null default now()
  );
  create table two_factor_recovery_codes (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users(id) on delete cascade,
    code_hash text not null,
    used_at timestamptz,
    created_at timestamptz not null default now(),
    unique (user_id, code_hash)
  );
  create table sign_in_challenges (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users(id) on delete cascade,
    token_hash text not null unique,
    attempts integer not null default 0,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
  );
  create index sign_in_challenges_user on sign_in_challenges (user_id)
`;

const DOWN = `
  update users set mfa_enabled = false where mfa_enabled;
  drop table sign_in_challenges;
  drop table two_factor_recovery_codes;
  drop table two_factor_secrets
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
