import { type Kysely, sql } from 'kysely';

/**
 * Each sign-up of a pending e-mail, with the details it gave, known by a token kept in the
 * browser that sent it. The user's row keeps the first sign-up's details; confirming the e-mail
 * from a browser that holds a token takes that sign-up's details instead, so whoever proves the
 * e-mail gets the password they chose, not one a stranger set by signing up first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sign_up_attempts (
      token_hash text primary key,
      user_id uuid not null references users(id) on delete cascade,
      password_hash text not null,
      given_name text not null,
      family_name text not null,
      referral_code text,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index sign_up_attempts_user on sign_up_attempts (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sign_up_attempts`.execute(db);
}
