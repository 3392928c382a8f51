import type { NotifyCategory, NotifyWebhook, NotifyWebhookStatus } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { dropAddresses } from './addresses.store.ts';

/** The address-activity webhooks (notify_webhooks): this module owns the notify_* tables. */

export interface WebhookRow {
  id: string;
  account_id: string;
  name: string;
  network: string;
  url: string;
  categories: string[];
  confirmations: number;
  status: string;
  disabled_reason: string | null;
  address_count: number;
  failing_since: Date | null;
  created_at: Date;
}

const COLUMNS = [
  'id',
  'account_id',
  'name',
  'network',
  'url',
  'categories',
  'confirmations',
  'status',
  'disabled_reason',
  'address_count',
  'failing_since',
  'created_at',
] as const;

export async function insertWebhook(
  db: Db,
  row: { accountId: string; name: string; network: string; url: string; categories: string[]; confirmations: number },
): Promise<WebhookRow> {
  return db
    .insertInto('notify_webhooks')
    .values({
      account_id: row.accountId,
      name: row.name,
      network: row.network,
      url: row.url,
      categories: row.categories,
      confirmations: row.confirmations,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** An account's webhook that is not deleted; `forUpdate` locks it for the caller's transaction. */
export function webhookOf(db: Db, accountId: string, id: string, forUpdate = false): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('notify_webhooks')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

export function webhooksOf(db: Db, accountId: string): Promise<WebhookRow[]> {
  return db
    .selectFrom('notify_webhooks')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Locks the account's row of webhooks (its first) so that two creates cannot both pass the limit. */
export async function countWebhooks(db: Db, accountId: string): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtext(${`notify webhooks ${accountId}`}))`.execute(db);
  const row = await db
    .selectFrom('notify_webhooks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setWebhookStatus(
  db: Db,
  id: string,
  status: NotifyWebhookStatus,
  reason: string | null,
): Promise<WebhookRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('notify_webhooks')
      .set({
        status,
        disabled_reason: status === 'DISABLED' ? reason : null,
        // Enabled again: its failures are forgiven, and the deliveries held meanwhile go out now, in order.
        ...(status === 'ENABLED' ? { failing_since: null } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (row && status === 'ENABLED') {
      await trx
        .updateTable('notify_deliveries')
        // A second back: the sender compares with its own clock, which may trail the database's.
        .set({ next_at: sql`now() - interval '1 second'` })
        .where('webhook_id', '=', id)
        .where('status', '=', 'PENDING')
        .execute();
    }
    return row;
  });
}

/** Deletes the webhook: its addresses go now, its deliveries and replays stop; the row stays for the usage it billed. */
export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('notify_webhooks')
      .set({ deleted_at: sql`now()`, address_count: 0 })
      .where('id', '=', id)
      .execute();
    await dropAddresses(trx, id);
    await trx
      .updateTable('notify_deliveries')
      .set({ status: 'FAILED', next_at: null })
      .where('webhook_id', '=', id)
      .where('status', '=', 'PENDING')
      .execute();
    await trx.updateTable('notify_replays').set({ status: 'DONE' }).where('webhook_id', '=', id).execute();
  });
}

/** Marks since when a webhook fails (kept if already failing), or clears it (null) after a delivery. */
export async function setFailingSince(db: Db, id: string, since: Date | null): Promise<void> {
  await db
    .updateTable('notify_webhooks')
    .set({ failing_since: since })
    .where('id', '=', id)
    .$if(since !== null, (q) => q.where('failing_since', 'is', null))
    .execute();
}

/** Disables a webhook that failed too long; true only for the call that disabled it (one e-mail). */
export async function disableFailing(db: Db, id: string, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('notify_webhooks')
    .set({ status: 'DISABLED', disabled_reason: reason, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'ENABLED')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function webhookName(db: Db, id: string) {
  return db.selectFrom('notify_webhooks').select('name').where('id', '=', id).executeTakeFirst();
}

/** What the scanner needs of a network's webhooks: the enabled ones, by id. */
export interface WatchingWebhook {
  id: string;
  accountId: string;
  categories: ReadonlySet<string>;
  confirmations: number;
}

export async function enabledWebhooksOn(db: Db, network: string): Promise<Map<string, WatchingWebhook>> {
  const rows = await db
    .selectFrom('notify_webhooks')
    .select(['id', 'account_id', 'categories', 'confirmations'])
    .where('network', '=', network)
    .where('status', '=', 'ENABLED')
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, accountId: r.account_id, categories: new Set(r.categories), confirmations: r.confirmations },
    ]),
  );
}

/** The networks with an enabled webhook or a replay under way: the ones worth scanning. */
export async function watchedNetworks(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('notify_webhooks')
    .select('network')
    .where('status', '=', 'ENABLED')
    .where('deleted_at', 'is', null)
    .union(db.selectFrom('notify_replays').select('network').where('status', '=', 'RUNNING'))
    .execute();
  return [...new Set(rows.map((r) => r.network))];
}

/** The last attempt of each of the given webhooks (at most 20 an account), each read from the end of its log. */
export async function lastAttempts(db: Db, webhookIds: string[]): Promise<Map<string, NotifyWebhook['lastDelivery']>> {
  const found = new Map<string, NotifyWebhook['lastDelivery']>();
  for (const webhookId of webhookIds) {
    const row = await db
      .selectFrom('notify_deliveries as d')
      .innerJoin('notify_attempts as a', 'a.delivery_id', 'd.id')
      .select(['d.block_number', 'd.status', 'a.at', 'a.status_code'])
      .where('d.webhook_id', '=', webhookId)
      .orderBy('d.id', 'desc')
      .orderBy('a.attempt', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (row) {
      found.set(webhookId, {
        at: new Date(row.at).toISOString(),
        blockNumber: Number(row.block_number),
        statusCode: row.status_code,
        status: row.status,
      });
    }
  }
  return found;
}

export const webhookView = (row: WebhookRow, lastDelivery: NotifyWebhook['lastDelivery'] = null): NotifyWebhook => ({
  id: row.id,
  name: row.name,
  network: row.network,
  url: row.url,
  categories: row.categories as NotifyCategory[],
  confirmations: row.confirmations,
  status: row.status as NotifyWebhookStatus,
  disabledReason: row.disabled_reason,
  addressCount: row.address_count,
  failingSince: row.failing_since ? new Date(row.failing_since).toISOString() : null,
  lastDelivery,
  createdAt: new Date(row.created_at).toISOString(),
});
