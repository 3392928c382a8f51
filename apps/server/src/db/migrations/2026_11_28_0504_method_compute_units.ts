import { type Kysely, sql } from 'kysely';

/**
 * The gateway's per-method figures count each method's compute units beside its calls (the
 * Analytics page shows both). Rows written before count none: what those calls cost was not kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rpc_method_stats add column compute_units bigint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rpc_method_stats drop column compute_units`.execute(db);
}
