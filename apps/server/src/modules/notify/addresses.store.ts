import { badRequest, NOTIFY_LIMITS, NotifyMessages } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * The watched addresses of each webhook (notify_addresses) and the log of their changes
 * (notify_address_log), which the scanner's process reads to keep its copy in memory current.
 *
 * A change holds its network's advisory lock shared; the scanner takes it exclusively to read the
 * log, so it waits for every change under way to commit: a change's log rows are never read past
 * (sequence numbers are given at insert, not at commit).
 */
const lockKey = (network: string) => sql`hashtext(${`notify addresses ${network}`})`;

export interface AddressChange {
  added: number;
  removed: number;
  addressCount: number;
}

/** Adds and removes addresses (lower-case, checked) in the caller's transaction; refuses past the limit. */
export async function changeAddresses(
  trx: Db,
  webhook: { id: string; network: string },
  add: string[],
  remove: string[],
): Promise<AddressChange> {
  await sql`select pg_advisory_xact_lock_shared(${lockKey(webhook.network)})`.execute(trx);
  const removed = remove.length
    ? await trx
        .deleteFrom('notify_addresses')
        .where('webhook_id', '=', webhook.id)
        .where('address', 'in', remove)
        .returning('address')
        .execute()
    : [];
  const added = add.length
    ? await trx
        .insertInto('notify_addresses')
        .values(add.map((address) => ({ webhook_id: webhook.id, address })))
        .onConflict((oc) => oc.doNothing())
        .returning('address')
        .execute()
    : [];
  const log = [
    ...removed.map((r) => ({ network: webhook.network, webhook_id: webhook.id, address: r.address, added: false })),
    ...added.map((r) => ({ network: webhook.network, webhook_id: webhook.id, address: r.address, added: true })),
  ];
  for (let i = 0; i < log.length; i += 1000)
    await trx
      .insertInto('notify_address_log')
      .values(log.slice(i, i + 1000))
      .execute();
  const row = await trx
    .updateTable('notify_webhooks')
    .set({ address_count: sql`address_count + ${added.length - removed.length}`, updated_at: sql`now()` })
    .where('id', '=', webhook.id)
    .returning('address_count')
    .executeTakeFirstOrThrow();
  if (row.address_count > NOTIFY_LIMITS.addressesPerWebhook) throw badRequest(NotifyMessages.tooManyAddresses);
  return { added: added.length, removed: removed.length, addressCount: row.address_count };
}

/** Removes all of a deleted webhook's addresses, logged like any removal so scanners drop them at their next block. */
export async function dropAddresses(trx: Db, webhookId: string): Promise<void> {
  const webhook = await trx
    .selectFrom('notify_webhooks')
    .select('network')
    .where('id', '=', webhookId)
    .executeTakeFirst();
  if (!webhook) return;
  await sql`select pg_advisory_xact_lock_shared(${lockKey(webhook.network)})`.execute(trx);
  await sql`
    insert into notify_address_log (network, webhook_id, address, added)
    select ${webhook.network}, webhook_id, address, false from notify_addresses where webhook_id = ${webhookId}
  `.execute(trx);
  await trx.deleteFrom('notify_addresses').where('webhook_id', '=', webhookId).execute();
}

/** A page of a webhook's addresses in address order, after `cursor`, optionally those containing `search`. */
export async function addressPage(
  db: Db,
  webhookId: string,
  query: { limit: number; cursor?: string; search?: string },
): Promise<{ addresses: string[]; nextCursor: string | null; total: number }> {
  const search = query.search?.toLowerCase().replace(/[^0-9a-fx]/g, '');
  // A search with nothing an address could hold finds nothing (rather than everything).
  if (query.search !== undefined && query.search.trim() !== '' && !search)
    return { addresses: [], nextCursor: null, total: 0 };
  const filtered = db
    .selectFrom('notify_addresses')
    .where('webhook_id', '=', webhookId)
    .$if(Boolean(search), (q) => q.where('address', 'like', `%${search}%`));
  const rows = await filtered
    .select('address')
    .$if(Boolean(query.cursor), (q) => q.where('address', '>', query.cursor?.toLowerCase() ?? ''))
    .orderBy('address')
    .limit(query.limit + 1)
    .execute();
  const { total } = await filtered.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const page = rows.slice(0, query.limit).map((r) => r.address);
  return {
    addresses: page,
    nextCursor: rows.length > query.limit ? (page.at(-1) ?? null) : null,
    total: Number(total),
  };
}

/**
 * The newest change of a network's addresses (0: none yet), once every change under way has
 * committed: a change begun later is numbered after it.
 */
export function lastAddressChange(db: Db, network: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${lockKey(network)})`.execute(trx);
    const row = await trx
      .selectFrom('notify_address_log')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('network', '=', network)
      .executeTakeFirst();
    return String(row?.seq ?? '0');
  });
}

/** A page of the addresses watched on a network by webhooks not deleted, in (webhook, address) order. */
export function watchedPage(
  db: Db,
  network: string,
  after: { webhookId: string; address: string } | null,
  limit: number,
) {
  return db
    .selectFrom('notify_addresses as a')
    .innerJoin('notify_webhooks as w', 'w.id', 'a.webhook_id')
    .select(['a.webhook_id', 'a.address'])
    .where('w.network', '=', network)
    .where('w.deleted_at', 'is', null)
    .$if(after !== null, (q) =>
      q.where((eb) =>
        eb.or([
          eb('a.webhook_id', '>', after?.webhookId ?? ''),
          eb.and([eb('a.webhook_id', '=', after?.webhookId ?? ''), eb('a.address', '>', after?.address ?? '')]),
        ]),
      ),
    )
    .orderBy('a.webhook_id')
    .orderBy('a.address')
    .limit(limit)
    .execute();
}

/** Changes of a network's addresses after `seq`, oldest first, once every change under way has committed. */
export function addressChangesSince(db: Db, network: string, seq: string, limit: number) {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${lockKey(network)})`.execute(trx);
    return trx
      .selectFrom('notify_address_log')
      .select(['seq', 'webhook_id', 'address', 'added'])
      .where('network', '=', network)
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  });
}

/** Forgets changes older than a day: a scanner that far behind reloads its copy whole. */
export async function pruneAddressLog(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('notify_address_log').where('created_at', '<', before).execute();
}
