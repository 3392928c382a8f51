import { type Kysely, sql } from 'kysely';

/**
 * Auto pay charges once per crossing below the threshold: `armed` is cleared by a charge and set
 * again once available credit is back at the threshold. The crossing's idempotency key is saved
 * before the charge, so a retry after a crash charges with the same key. Declines back off.
 */
const UP = `
  alter table accounts add column auto_deposit_armed boolean not null default true;
  alter table accounts add column auto_deposit_key text;
  alter table accounts add column auto_deposit_failures integer not null default 0;
  alter table accounts add column auto_deposit_retry_at timestamptz
`;

const DOWN = `
  alter table accounts drop column auto_deposit_retry_at;
  alter table accounts drop column auto_deposit_failures;
  alter table accounts drop column auto_deposit_key;
  alter table accounts drop column auto_deposit_armed
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
