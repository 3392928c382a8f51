import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Blocks kept per network to find where a reorg forked: deeper than any reorg the networks see. */
export const KEPT_BLOCKS = 256;

/**
 * Takes or keeps a network's scanner lease. Answers the next block to read (null: start at the
 * head), or undefined while another process holds it.
 */
export async function takeScanner(
  db: Db,
  network: string,
  owner: string,
  now: Date,
  leaseMs: number,
): Promise<{ nextBlock: number | null } | undefined> {
  const row = await db
    .insertInto('notify_scanners')
    .values({ network, lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs) })
    .onConflict((oc) =>
      oc
        .column('network')
        .doUpdateSet({ lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs) })
        .where((eb) =>
          eb.or([
            eb('notify_scanners.lease_owner', '=', owner),
            eb('notify_scanners.lease_owner', 'is', null),
            eb('notify_scanners.lease_until', '<', now),
          ]),
        ),
    )
    .returning('next_block')
    .executeTakeFirst();
  if (!row) return undefined;
  return { nextBlock: row.next_block === null ? null : Number(row.next_block) };
}

/**
 * A network no enabled webhook watches is not scanned: its scanner's cursor would be as old as
 * its last watcher. The first new watcher starts it at `fromBlock` (the block after the head
 * when the webhook was made), neither earlier nor later.
 */
export async function restartIdleScanner(db: Db, network: string, fromBlock: number): Promise<void> {
  const watched = await db
    .selectFrom('notify_webhooks')
    .select('id')
    .where('network', '=', network)
    .where('status', '=', 'ENABLED')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (watched) return;
  await db
    .insertInto('notify_scanners')
    .values({ network, next_block: fromBlock })
    .onConflict((oc) => oc.column('network').doUpdateSet({ next_block: fromBlock }))
    .execute();
  await db.deleteFrom('notify_blocks').where('network', '=', network).execute();
}

/** Gives back this owner's leases (at stop), so another process scans at once. */
export async function releaseScanners(db: Db, owner: string): Promise<void> {
  await db
    .updateTable('notify_scanners')
    .set({ lease_owner: null, lease_until: null })
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Moves the cursor, only while this owner holds the lease and the cursor is where it read it:
 * false when another process took over, and the caller's transaction must not commit.
 */
export async function moveCursor(db: Db, network: string, owner: string, from: number | null, to: number) {
  const result = await db
    .updateTable('notify_scanners')
    .set({ next_block: to, updated_at: sql`now()` })
    .where('network', '=', network)
    .where('lease_owner', '=', owner)
    .where((eb) => (from === null ? eb('next_block', 'is', null) : eb('next_block', '=', from)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether this owner still holds the network's lease; locks the row for the caller's transaction. */
export async function holdsScanner(db: Db, network: string, owner: string): Promise<boolean> {
  const row = await db
    .selectFrom('notify_scanners')
    .select('network')
    .where('network', '=', network)
    .where('lease_owner', '=', owner)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function keptBlock(db: Db, network: string, number: number) {
  return db
    .selectFrom('notify_blocks')
    .select(['hash', 'parent_hash'])
    .where('network', '=', network)
    .where('block_number', '=', number)
    .executeTakeFirst();
}

/** The kept blocks from the newest down, to walk back to a fork. */
export async function keptBlocksFrom(db: Db, network: string, below: number) {
  const rows = await db
    .selectFrom('notify_blocks')
    .select(['block_number', 'hash'])
    .where('network', '=', network)
    .where('block_number', '<', below)
    .orderBy('block_number', 'desc')
    .limit(KEPT_BLOCKS)
    .execute();
  return rows.map((r) => ({ number: Number(r.block_number), hash: r.hash }));
}

export async function keepBlock(db: Db, network: string, block: { number: number; hash: string; parentHash: string }) {
  await db
    .insertInto('notify_blocks')
    .values({ network, block_number: block.number, hash: block.hash, parent_hash: block.parentHash })
    .onConflict((oc) =>
      oc.columns(['network', 'block_number']).doUpdateSet({ hash: block.hash, parent_hash: block.parentHash }),
    )
    .execute();
  await db
    .deleteFrom('notify_blocks')
    .where('network', '=', network)
    .where('block_number', '<=', block.number - KEPT_BLOCKS)
    .execute();
}

export async function forgetBlocksAfter(db: Db, network: string, number: number): Promise<void> {
  await db.deleteFrom('notify_blocks').where('network', '=', network).where('block_number', '>', number).execute();
}

/** Live SEEN events above a block that no removal has answered yet: what a reorg to that block takes back. */
export function seenAbove(db: Db, network: string, number: number) {
  return db
    .selectFrom('notify_deliveries')
    .select(['id', 'account_id', 'payload'])
    .where('network', '=', network)
    .where('kind', '=', 'SEEN')
    .where('replay', '=', false)
    .where('removed_at', 'is', null)
    .where('block_number', '>', number)
    .orderBy('block_number')
    .orderBy('id')
    .execute();
}

/** For each webhook, how many times a reorg took this very block back (its events as seen, removed since). */
export async function takenBack(db: Db, network: string, number: number, hash: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('notify_deliveries')
    .select(['webhook_id', (eb) => eb.fn.countAll<string>().as('times')])
    .where('network', '=', network)
    .where('block_number', '=', number)
    .where('block_hash', '=', hash)
    .where('kind', '=', 'REMOVED')
    .where('part', '<=', 1)
    .groupBy('webhook_id')
    .execute();
  return new Map(rows.map((r) => [r.webhook_id, Number(r.times)]));
}

/** SEEN events deep enough to confirm, not yet confirmed nor removed. */
export function dueConfirmations(db: Db, network: string, upTo: number, limit: number) {
  return (
    db
      .selectFrom('notify_deliveries as d')
      // Still the block kept at that height: a block a reorg replaced is taken back, never confirmed.
      .leftJoin('notify_blocks as b', (join) =>
        join.onRef('b.network', '=', 'd.network').onRef('b.block_number', '=', 'd.block_number'),
      )
      .select(['d.id', 'd.account_id', 'd.payload'])
      .where('d.network', '=', network)
      .where('d.kind', '=', 'SEEN')
      .where('d.replay', '=', false)
      .where('d.removed_at', 'is', null)
      .where('d.confirmed_at', 'is', null)
      .where('d.confirm_at_block', '<=', upTo)
      .where((eb) => eb.or([eb('b.hash', 'is', null), eb('b.hash', '=', eb.ref('d.block_hash'))]))
      .orderBy('d.confirm_at_block')
      .orderBy('d.id')
      .limit(limit)
      .execute()
  );
}

export async function markEvents(db: Db, ids: string[], column: 'confirmed_at' | 'removed_at'): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notify_deliveries')
    .set({ [column]: sql`now()` })
    .where('id', 'in', ids)
    .execute();
}

/** Starts a replay; undefined when one of the webhook is already under way. */
export async function startReplay(
  db: Db,
  replay: { webhookId: string; network: string; fromBlock: number; toBlock: number },
): Promise<string | undefined> {
  const row = await db
    .insertInto('notify_replays')
    .values({
      webhook_id: replay.webhookId,
      network: replay.network,
      from_block: replay.fromBlock,
      to_block: replay.toBlock,
      next_block: replay.fromBlock,
    })
    .onConflict((oc) => oc.column('webhook_id').where('status', '=', 'RUNNING').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Replays under way on a network of webhooks not deleted, the least recently moved first. */
export async function runningReplays(db: Db, network: string, limit: number) {
  const rows = await db
    .selectFrom('notify_replays as r')
    .innerJoin('notify_webhooks as w', 'w.id', 'r.webhook_id')
    .select(['r.id', 'r.webhook_id', 'r.to_block', 'r.next_block'])
    .where('r.network', '=', network)
    .where('r.status', '=', 'RUNNING')
    .where('w.status', '=', 'ENABLED')
    .where('w.deleted_at', 'is', null)
    .orderBy('r.updated_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    toBlock: Number(r.to_block),
    nextBlock: Number(r.next_block),
  }));
}

/** Moves a replay on, only from where it was read (one scanner at a time; a second would find it moved). */
export async function advanceReplay(db: Db, id: string, from: number, to: number, done: boolean): Promise<boolean> {
  const result = await db
    .updateTable('notify_replays')
    .set({ next_block: to, updated_at: sql`now()`, ...(done ? { status: 'DONE' } : {}) })
    .where('id', '=', id)
    .where('next_block', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
