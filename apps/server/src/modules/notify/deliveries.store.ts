import type { NotifyDelivery, NotifyPayload } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { newWebhookId } from '../forwarding/index.ts';
import type { EventKind } from './activity-view.ts';

/** A delivery to queue: one event of one webhook. */
export interface NewDelivery {
  accountId: string;
  payload: NotifyPayload;
  kind: EventKind | 'TEST';
  /** The block at which a SEEN event is confirmed (its block + the webhook's confirmations); null: none to send. */
  confirmAtBlock: number | null;
}

const row = (d: NewDelivery, status: 'PENDING' | 'DELIVERED' | 'FAILED' = 'PENDING') => ({
  webhook_id: d.payload.webhookId,
  account_id: d.accountId,
  network: d.payload.network,
  kind: d.kind,
  replay: d.payload.replay,
  event_id: d.payload.eventId,
  message_id: newWebhookId(),
  block_number: d.payload.block.number,
  block_hash: d.payload.block.hash,
  activity_count: d.payload.activity.length,
  part: d.payload.part?.index ?? 0,
  payload: JSON.stringify(d.payload),
  status,
  next_at: status === 'PENDING' ? new Date() : null,
  confirm_at_block: d.confirmAtBlock,
});

/** Rows an insert carries: parts of a busy block are a few hundred KB each. */
const INSERT_ROWS = 20;

/**
 * Queues deliveries, each due now. A live event already queued (the same webhook and event id: a
 * second scanner read the same block) is left as it is; replays are always queued.
 */
export async function queueDeliveries(db: Db, deliveries: NewDelivery[]): Promise<number> {
  let queued = 0;
  for (let i = 0; i < deliveries.length; i += INSERT_ROWS) {
    const result = await db
      .insertInto('notify_deliveries')
      .values(deliveries.slice(i, i + INSERT_ROWS).map((d) => row(d)))
      .onConflict((oc) =>
        oc.columns(['webhook_id', 'event_id']).where(sql<boolean>`not replay and kind <> 'TEST'`).doNothing(),
      )
      .executeTakeFirst();
    queued += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return queued;
}

/** The test message, recorded as sent with its one attempt. */
export async function recordTestDelivery(
  db: Db,
  delivery: NewDelivery,
  messageId: string,
  attempt: { at: Date; statusCode: number | null; durationMs: number; error: string | null },
): Promise<void> {
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  await db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('notify_deliveries')
      .values({ ...row(delivery, ok ? 'DELIVERED' : 'FAILED'), message_id: messageId, attempt: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('notify_attempts')
      .values({
        delivery_id: id,
        attempt: 1,
        at: attempt.at,
        status_code: attempt.statusCode,
        duration_ms: attempt.durationMs,
        error: attempt.error,
      })
      .execute();
  });
}

/** A page of a webhook's log, newest first, each message with its attempts. */
export async function deliveryPage(
  db: Db,
  webhookId: string,
  page: { limit: number; offset: number },
): Promise<{ deliveries: NotifyDelivery[]; total: number }> {
  const rows = await db
    .selectFrom('notify_deliveries')
    .select([
      'id',
      'event_id',
      'message_id',
      'block_number',
      'block_hash',
      'kind',
      'replay',
      'activity_count',
      'status',
      'next_at',
      'created_at',
    ])
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { total } = await db
    .selectFrom('notify_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow();
  const attempts = rows.length
    ? await db
        .selectFrom('notify_attempts')
        .selectAll()
        .where(
          'delivery_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('attempt')
        .execute()
    : [];
  return {
    total: Number(total),
    deliveries: rows.map((r) => ({
      id: String(r.id),
      eventId: r.event_id,
      messageId: r.message_id,
      blockNumber: Number(r.block_number),
      blockHash: r.block_hash,
      confirmed: r.kind === 'CONFIRMED',
      removed: r.kind === 'REMOVED',
      replay: r.replay,
      test: r.kind === 'TEST',
      activityCount: r.activity_count,
      status: r.status as NotifyDelivery['status'],
      nextAttemptAt: r.status === 'PENDING' && r.next_at ? new Date(r.next_at).toISOString() : null,
      createdAt: new Date(r.created_at).toISOString(),
      attempts: attempts
        .filter((a) => String(a.delivery_id) === String(r.id))
        .map((a) => ({
          attempt: a.attempt,
          at: new Date(a.at).toISOString(),
          statusCode: a.status_code,
          durationMs: a.duration_ms,
          error: a.error,
        })),
    })),
  };
}

/** A delivery taken to send, with its webhook's URL and failures. */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  account_id: string;
  network: string;
  kind: string;
  message_id: string;
  payload: string;
  attempt: number;
  url: string;
  failing_since: Date | null;
}

/** Deliveries of one account sent at once, across processes: slow receivers of one account do not hold up the others'. */
const IN_FLIGHT_PER_ACCOUNT = 2;

/**
 * Takes the next due delivery and leases it to `owner` until `until`. Only the oldest pending
 * delivery of an enabled webhook may be taken (each webhook's head is found through its own queue,
 * so a long backlog behind a failing receiver costs nothing), so a webhook's deliveries go out one
 * at a time, in order; an account has at most IN_FLIGHT_PER_ACCOUNT in flight; `busy` are the
 * webhooks this process is sending to already. A delivery another process took in between is
 * not taken again (the lease is checked in the update).
 */
export async function claimNextDelivery(
  db: Db,
  owner: string,
  now: Date,
  until: Date,
  busy: readonly string[],
): Promise<ClaimedDelivery | undefined> {
  const { rows } = await sql<ClaimedDelivery>`
    update notify_deliveries d
    set lease_until = ${until}, lease_owner = ${owner}
    from notify_webhooks w
    where w.id = d.webhook_id
      and d.status = 'PENDING' and (d.lease_until is null or d.lease_until < ${now})
      and d.id = (
        select h.id from notify_webhooks pw
        cross join lateral (
          select p.id, p.next_at, p.lease_until, p.account_id from notify_deliveries p
          where p.webhook_id = pw.id and p.status = 'PENDING'
          order by p.id
          limit 1
        ) h
        where pw.status = 'ENABLED' and pw.deleted_at is null
          and not (pw.id = any(${[...busy]}::uuid[]))
          and h.next_at <= ${now} and (h.lease_until is null or h.lease_until < ${now})
          and (
            select count(*) from notify_deliveries f
            where f.account_id = h.account_id and f.status = 'PENDING' and f.lease_until >= ${now}
          ) < ${IN_FLIGHT_PER_ACCOUNT}
        order by h.next_at, h.id
        limit 1
      )
    returning d.id, d.webhook_id, d.account_id, d.network, d.kind, d.message_id, d.payload, d.attempt, w.url, w.failing_since
  `.execute(db);
  return rows[0];
}

/**
 * Records one attempt and what follows it, only while the delivery is still at the attempt this
 * owner leased: a process whose lease ran out records nothing over the one that took it over.
 */
export async function recordAttempt(
  db: Db,
  delivery: ClaimedDelivery,
  owner: string,
  entry: { attempt: number; at: Date; status_code: number | null; duration_ms: number; error: string | null },
  next: { status: 'PENDING' | 'DELIVERED' | 'FAILED'; nextAt: Date | null },
): Promise<boolean> {
  const moved = await db
    .updateTable('notify_deliveries')
    .set({ status: next.status, attempt: entry.attempt, next_at: next.nextAt, lease_until: null, lease_owner: null })
    .where('id', '=', delivery.id)
    .where('status', '=', 'PENDING')
    .where('attempt', '=', delivery.attempt)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  await db
    .insertInto('notify_attempts')
    .values({ delivery_id: delivery.id, ...entry })
    .execute();
  return true;
}

/**
 * Forgets sent and failed messages older than `before` (their attempts with them), a batch at a
 * time; events still waiting for their confirmation are kept.
 */
export async function pruneDeliveries(db: Db, before: Date, batch = 5000): Promise<number> {
  const result = await db
    .deleteFrom('notify_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('notify_deliveries')
        .select('id')
        .where('created_at', '<', before)
        .where('status', 'in', ['DELIVERED', 'FAILED'])
        .where((w) =>
          w.or([w('confirm_at_block', 'is', null), w('confirmed_at', 'is not', null), w('removed_at', 'is not', null)]),
        )
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
