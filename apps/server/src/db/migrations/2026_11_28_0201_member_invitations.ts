import { type Kysely, sql } from 'kysely';

/**
 * A member who joined by an invitation keeps that invitation's id: the owner's page, still open,
 * lists the pending invitation by its id, and removing that row must remove the member it became
 * (the invitation itself is used up when the user joins).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table account_members add column invitation_id uuid`.execute(db);
  await sql`create unique index account_members_invitation on account_members (account_id, invitation_id) where invitation_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index account_members_invitation`.execute(db);
  await sql`alter table account_members drop column invitation_id`.execute(db);
}
