import { type Kysely, sql } from 'kysely';

/**
 * Third-party sign-in (OpenID Connect): a user may have no password (signed up with a provider),
 * identities name a user by the provider's issuer and subject, and sign-ins under way keep their
 * state, nonce and PKCE verifier for a few minutes, found by the hash of the browser's cookie.
 */
const UP = `
  alter table users alter column password_hash drop not null;
  create table user_identities (
    issuer text not null,
    subject text not null,
    user_id uuid not null references users(id) on delete cascade,
    email text not null,
    created_at timestamptz not null default now(),
    last_used_at timestamptz not null default now(),
    primary key (issuer, subject)
  );
  create index user_identities_user on user_identities (user_id);
  create table third_party_sign_ins (
    flow_hash text primary key,
    provider text not null,
    state text not null,
    nonce text not null,
    code_verifier text not null,
    expires_at timestamptz not null,
    created_at timestamptz not null default now()
  );
  create index third_party_sign_ins_expiry on third_party_sign_ins (expires_at)
`;

// The way back refuses to run while a user has no password (a password reset gives them one):
// deleting people who hold accounts is not a migration's call.
const DOWN = `
  alter table users alter column password_hash set not null;
  drop table third_party_sign_ins;
  drop table user_identities
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
