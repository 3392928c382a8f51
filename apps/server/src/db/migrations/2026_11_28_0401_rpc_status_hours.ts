import { type Kysely, sql } from 'kysely';

/**
 * Each network's calls per hour and how many of them no node answered (the Status page's last 24
 * hours): one small row per network and hour, added to by every server process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rpc_status_hours (
      network text not null,
      hour timestamptz not null,
      calls bigint not null default 0,
      failed bigint not null default 0,
      primary key (network, hour)
    )`.execute(db);
  await sql`create index rpc_status_hours_hour on rpc_status_hours (hour)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rpc_status_hours`.execute(db);
}
