import { type Kysely, sql } from 'kysely';

/**
 * The request log says what the gateway answered a failed request (the refusal's or the node's
 * error message, cut to 300 characters) and how long the request's body was: what a customer needs
 * to act on an error without the body itself, which is never kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rpc_request_log add column error_message text`.execute(db);
  await sql`alter table rpc_request_log add column request_chars integer`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rpc_request_log drop column request_chars`.execute(db);
  await sql`alter table rpc_request_log drop column error_message`.execute(db);
}
