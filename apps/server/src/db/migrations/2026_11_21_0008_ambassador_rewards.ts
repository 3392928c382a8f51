import { type Kysely, sql } from 'kysely';

/**
 * Ambassador rewards are a ledger of their own: one row per deposit that earned one (the deposit's
 * id is the key, so a deposit rewards once), and an ambassador's balance is the sum of its rows.
 */
const UP = `
  create table ambassador_rewards (
    transaction_id uuid primary key references account_transactions(id),
    ambassador_user_id uuid not null references users(id) on delete cascade,
    referred_user_id uuid not null references users(id),
    deposit_amount numeric(20, 6) not null,
    reward_rate numeric(6, 4) not null,
    amount numeric(20, 6) not null,
    created_at timestamptz not null default now()
  );
  create index ambassador_rewards_ambassador on ambassador_rewards (ambassador_user_id, created_at);
  create index users_referral_code on users (referral_code) where referral_code is not null;
  alter table ambassadors drop column balance
`;

const DOWN = `
  alter table ambassadors add column balance numeric(20, 6) not null default 0;
  drop index users_referral_code;
  drop table ambassador_rewards
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
