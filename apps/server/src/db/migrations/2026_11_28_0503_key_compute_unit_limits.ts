import { type Kysely, sql } from 'kysely';

/**
 * A key's own limits in compute units (what each call costs, packages/contract/src/pricing.ts)
 * beside its request limits: per second and per UTC day; null: no limit in compute units.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table api_keys
      add column compute_units_per_second integer check (compute_units_per_second > 0),
      add column compute_units_per_day integer check (compute_units_per_day > 0)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_keys drop column compute_units_per_second, drop column compute_units_per_day`.execute(db);
}
