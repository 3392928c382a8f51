import { type Kysely, sql } from 'kysely';

/**
 * Every key create counts the account's keys created in the last hour, deleted ones included; the
 * index of the live keys leaves the deleted ones out, so they get an index of all keys. The live
 * keys keep theirs: however many keys an account deleted, its list reads only the live ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index api_keys_account_created on api_keys (account_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index api_keys_account_created`.execute(db);
}
