import { type Kysely, sql } from 'kysely';

/**
 * Calls are priced in compute units (packages/contract/src/pricing.ts): each usage record keeps its
 * calls' units beside the calls, and an RPC resource's unit price becomes the price of one unit.
 * Token forwards stay priced per forward: their records keep no units (null).
 *
 * Every record made before counted one unit a call at the price of a call, so each RPC record's
 * units are its calls and its price does not change. One UPDATE: the new column is added without a
 * default (no rewrite of the table), then the RPC records are written once.
 *
 * compute_unit_prices holds the operator's changes to a price class's units, to a method's own,
 * or to a cached call's (`price cu`); a name it does not hold costs its class's default units.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table account_resource_usage add column compute_units bigint check (compute_units >= 0)`.execute(db);
  await sql`update account_resource_usage set compute_units = usage
    where not starts_with(resource_name, 'TOKEN_FORWARDING_')`.execute(db);
  await sql`
    create table compute_unit_prices (
      name text primary key,
      compute_units integer not null check (compute_units >= 0 and compute_units <= 1000000),
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table compute_unit_prices`.execute(db);
  await sql`alter table account_resource_usage drop column compute_units`.execute(db);
}
