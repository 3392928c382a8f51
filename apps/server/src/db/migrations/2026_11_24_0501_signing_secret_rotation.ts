import { type Kysely, sql } from 'kysely';

/**
 * The signing secret a rotation replaced, sealed like the current one, and when the rotation
 * happened: webhooks carry its signature too for a while after, so receivers can switch over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table accounts
      add column previous_signing_secret_sealed text,
      add column signing_secret_rotated_at timestamptz
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table accounts
      drop column signing_secret_rotated_at,
      drop column previous_signing_secret_sealed
  `.execute(db);
}
