import { type Kysely, sql } from 'kysely';

/**
 * Accounts beyond their creation: the wizard's draft (named ACCOUNT_CREATION until finished),
 * each account's webhook signing secret (sealed with the data key), invitations of people who
 * have no user yet, and support tickets.
 */
const UP = `
  alter table accounts add column is_draft boolean not null default false;
  alter table accounts add column signing_secret_sealed text;
  create index accounts_drafts on accounts (created_at) where is_draft;
  create table account_invitations (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id) on delete cascade,
    email text not null,
    role_name text not null,
    invited_by uuid not null references users(id) on delete cascade,
    created_at timestamptz not null default now(),
    unique (account_id, email)
  );
  create index account_invitations_email on account_invitations (email);
  create table support_tickets (
    id uuid primary key default gen_random_uuid(),
    account_id uuid not null references accounts(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    message text not null,
    created_at timestamptz not null default now()
  );
  create index support_tickets_account on support_tickets (account_id, created_at desc)
`;

const DOWN = `
  drop table support_tickets;
  drop table account_invitations;
  drop index accounts_drafts;
  alter table accounts drop column signing_secret_sealed;
  alter table accounts drop column is_draft
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
