import { type Kysely, sql } from 'kysely';

/**
 * A key's own security settings: the origins, client addresses, methods and contracts it may be
 * used for (JSON arrays of strings; empty: any), its own request limits, whether requests must be
 * JWT-signed, an expiry, and the secret a roll replaced with the instant it stops being valid.
 * The public keys JWTs are checked with are rows of their own, each with the id a JWT names in `kid`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table api_keys
      add column allowed_origins jsonb not null default '[]',
      add column allowed_ips jsonb not null default '[]',
      add column allowed_methods jsonb not null default '[]',
      add column allowed_contracts jsonb not null default '[]',
      add column requests_per_second integer check (requests_per_second > 0),
      add column requests_per_day integer check (requests_per_day > 0),
      add column jwt_required boolean not null default false,
      add column expires_at timestamptz,
      add column previous_key_hash text,
      add column previous_key_expires_at timestamptz
  `.execute(db);
  await sql`
    create table api_key_jwt_keys (
      id uuid primary key default gen_random_uuid(),
      api_key_id uuid not null references api_keys(id) on delete cascade,
      algorithm text not null check (algorithm in ('RS256', 'ES256')),
      public_key_pem text not null,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index api_key_jwt_keys_key on api_key_jwt_keys (api_key_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table api_key_jwt_keys`.execute(db);
  await sql`
    alter table api_keys
      drop column allowed_origins, drop column allowed_ips, drop column allowed_methods,
      drop column allowed_contracts, drop column requests_per_second, drop column requests_per_day,
      drop column jwt_required, drop column expires_at, drop column previous_key_hash,
      drop column previous_key_expires_at
  `.execute(db);
}
