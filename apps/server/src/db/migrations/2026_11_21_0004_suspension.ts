import { type Kysely, sql } from 'kysely';

/**
 * An account's billing API is enabled only while its available credit (completed balance minus
 * pending withdrawals) is above 0; a new account starts with nothing, so it starts suspended.
 */
const UP = `
  alter table accounts alter column is_billing_api_enabled set default false;
  update accounts a set is_billing_api_enabled = (
    (select coalesce(sum(t.amount), 0) from account_transactions t
      where t.account_id = a.id and (t.status = 'COMPLETED' or (t.status = 'PENDING' and t.amount < 0))) > 0)
`;

const DOWN = `
  alter table accounts alter column is_billing_api_enabled set default true
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
