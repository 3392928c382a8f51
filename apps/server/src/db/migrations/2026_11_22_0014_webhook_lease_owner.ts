import { type Kysely, sql } from 'kysely';

/**
 * Who holds a webhook's delivery lease, as forwards already record theirs: a process that starts
 * after a crash gives back at once what the killed process on its host held, instead of leaving
 * the message alone until its lease runs out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table token_forwarding_transactions add column webhook_lease_owner text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table token_forwarding_transactions drop column webhook_lease_owner`.execute(db);
}
