import { type Kysely, sql } from 'kysely';

/**
 * Address-activity webhooks (docs/api.md). A webhook watches addresses of one network; each
 * network's scanner (one leased process at a time, notify_scanners) reads every block once, keeps
 * the blocks it read (notify_blocks) to see reorgs, and queues one delivery per webhook and block
 * (notify_deliveries), sent in order with every attempt kept (notify_attempts). notify_address_log
 * tells the scanner's process of address changes made by any process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notify_webhooks (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id),
      name text not null,
      network text not null,
      url text not null,
      categories text[] not null,
      confirmations integer not null check (confirmations between 0 and 64),
      status text not null default 'ENABLED' check (status in ('ENABLED', 'DISABLED')),
      disabled_reason text,
      address_count integer not null default 0 check (address_count >= 0),
      failing_since timestamptz,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index notify_webhooks_account on notify_webhooks (account_id) where deleted_at is null`.execute(db);
  await sql`create index notify_webhooks_network on notify_webhooks (network) where deleted_at is null`.execute(db);
  await sql`
    create table notify_addresses (
      webhook_id uuid not null references notify_webhooks(id) on delete cascade,
      address text not null check (address ~ '^0x[0-9a-f]{40}$'),
      primary key (webhook_id, address)
    )
  `.execute(db);
  await sql`
    create table notify_address_log (
      seq bigserial primary key,
      network text not null,
      webhook_id uuid not null,
      address text not null,
      added boolean not null,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index notify_address_log_network on notify_address_log (network, seq)`.execute(db);
  await sql`
    create table notify_scanners (
      network text primary key,
      next_block bigint,
      lease_owner text,
      lease_until timestamptz,
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`
    create table notify_blocks (
      network text not null,
      block_number bigint not null,
      hash text not null,
      parent_hash text not null,
      primary key (network, block_number)
    )
  `.execute(db);
  await sql`
    create table notify_replays (
      id uuid primary key default gen_random_uuid(),
      webhook_id uuid not null references notify_webhooks(id) on delete cascade,
      network text not null,
      from_block bigint not null,
      to_block bigint not null,
      next_block bigint not null,
      status text not null default 'RUNNING' check (status in ('RUNNING', 'DONE')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  // One replay under way a webhook.
  await sql`create unique index notify_replays_running on notify_replays (webhook_id) where status = 'RUNNING'`.execute(
    db,
  );
  await sql`
    create table notify_deliveries (
      id bigserial primary key,
      webhook_id uuid not null references notify_webhooks(id) on delete cascade,
      account_id uuid not null,
      network text not null,
      kind text not null check (kind in ('SEEN', 'CONFIRMED', 'REMOVED', 'TEST')),
      replay boolean not null default false,
      event_id text not null,
      message_id text not null,
      block_number bigint not null,
      block_hash text not null,
      activity_count integer not null,
      part integer not null default 0,
      payload text not null,
      status text not null check (status in ('PENDING', 'DELIVERED', 'FAILED')),
      attempt integer not null default 0,
      next_at timestamptz,
      lease_owner text,
      lease_until timestamptz,
      confirm_at_block bigint,
      confirmed_at timestamptz,
      removed_at timestamptz,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  // One live delivery per event: a second scanner that read the same block adds nothing.
  await sql`
    create unique index notify_deliveries_event on notify_deliveries (webhook_id, event_id)
    where not replay and kind <> 'TEST'
  `.execute(db);
  await sql`create index notify_deliveries_log on notify_deliveries (webhook_id, id)`.execute(db);
  await sql`create index notify_deliveries_block on notify_deliveries (network, block_number)`.execute(db);
  await sql`create index notify_deliveries_due on notify_deliveries (next_at, id) where status = 'PENDING'`.execute(db);
  // A webhook's pending queue (only its oldest may be sent) and an account's deliveries in flight.
  await sql`create index notify_deliveries_queue on notify_deliveries (webhook_id, id) where status = 'PENDING'`.execute(
    db,
  );
  await sql`
    create index notify_deliveries_in_flight on notify_deliveries (account_id)
    where status = 'PENDING' and lease_until is not null
  `.execute(db);
  await sql`
    create index notify_deliveries_open on notify_deliveries (network, block_number)
    where kind = 'SEEN' and not replay and removed_at is null
  `.execute(db);
  // Events waiting for their confirmation: few, whatever the history.
  await sql`
    create index notify_deliveries_to_confirm on notify_deliveries (network, confirm_at_block)
    where kind = 'SEEN' and not replay and removed_at is null and confirmed_at is null and confirm_at_block is not null
  `.execute(db);
  await sql`
    create table notify_attempts (
      delivery_id bigint not null references notify_deliveries(id) on delete cascade,
      attempt integer not null,
      at timestamptz not null,
      status_code integer,
      duration_ms integer not null,
      error text,
      primary key (delivery_id, attempt)
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'notify_attempts',
    'notify_deliveries',
    'notify_replays',
    'notify_blocks',
    'notify_scanners',
    'notify_address_log',
    'notify_addresses',
    'notify_webhooks',
  ]) {
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
}
