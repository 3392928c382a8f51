import { type Network, NotifyMessages, notifyResource, quotedName } from '@ebs/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { findAccountOwner, signingSecretsInForce } from '../accounts/index.ts';
import { postWebhook, webhookHeaders } from '../forwarding/index.ts';
import { findUserEmail } from '../identity/index.ts';
import { addUsage, utcDay } from '../usage/index.ts';
import { type ClaimedDelivery, claimNextDelivery, recordAttempt } from './deliveries.store.ts';
import { disableFailing, setFailingSince, webhookName } from './webhooks.store.ts';

/**
 * Seconds to wait after the 1st, 2nd... failed attempt: seconds, then minutes, then hours (the last
 * again after that); once a webhook has failed for 24 hours it is disabled.
 */
export const NOTIFY_RETRY_SCHEDULE = [5, 15, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800];
/** How long a webhook may fail before it is disabled. */
export const FAILING_LIMIT_MS = 24 * 3600_000;
/** A receiver's Retry-After is honoured up to an hour: the order of a webhook's deliveries waits on it. */
const RETRY_AFTER_MAX_SECONDS = 3600;
/** Longer than the longest attempt (WEBHOOK_TIMEOUT_MS is at most a minute). */
const LEASE_MS = 2 * 60_000;
const WORKERS = 8;
const MAX_PER_RUN = 1000;
/** A run takes no new delivery after this long, so the engine's next run starts fresh. */
const RUN_MS = 30_000;
const ERROR_KEEP = 500;

export interface SenderDeps {
  db: Db;
  dataKey: Buffer;
  mailer: Mailer;
  productName: string;
  config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_TARGETS' | 'WEBHOOK_TIMEOUT_MS'>;
  owner: string;
  now?: () => Date;
  schedule?: number[];
}

export interface SendRun {
  delivered: number;
  retried: number;
  failed: number;
  disabled: number;
}

/**
 * Sends due deliveries. A webhook's deliveries go out one at a time in the order they were queued:
 * only the oldest pending one of a webhook may be taken, and it is leased in the statement that
 * takes it, so two processes never send the same attempt nor two of one webhook at once. A
 * retried delivery keeps its message id (`webhook-id`). Disabled webhooks' deliveries wait.
 */
export async function sendDue(deps: SenderDeps): Promise<SendRun> {
  const run: SendRun = { delivered: 0, retried: 0, failed: 0, disabled: 0 };
  const started = Date.now();
  const busy = new Set<string>();
  let taken = 0;
  const worker = async () => {
    while (taken < MAX_PER_RUN && Date.now() - started < RUN_MS) {
      const row = await claimNext(deps, [...busy]);
      if (!row) return;
      taken += 1;
      busy.add(row.webhook_id);
      try {
        await attempt(deps, row, run);
      } catch {
        // Its lease runs out and it is tried again; the other deliveries go on.
      } finally {
        busy.delete(row.webhook_id);
      }
    }
  };
  // One worker first: when nothing is due (most turns) that is one query, not one a worker.
  await worker();
  if (taken > 0) await Promise.all(Array.from({ length: WORKERS }, worker));
  return run;
}

const clock = (deps: SenderDeps) => deps.now?.() ?? new Date();

function claimNext(deps: SenderDeps, busy: string[]): Promise<ClaimedDelivery | undefined> {
  const now = clock(deps);
  return claimNextDelivery(deps.db, deps.owner, now, new Date(now.getTime() + LEASE_MS), busy);
}

async function attempt(deps: SenderDeps, row: ClaimedDelivery, run: SendRun): Promise<void> {
  const at = clock(deps);
  const secrets = await signingSecretsInForce(deps.db, deps.dataKey, row.account_id, at);
  const answer = await postWebhook({
    url: row.url,
    headers: webhookHeaders({
      id: row.message_id,
      timestamp: Math.floor(at.getTime() / 1000),
      body: row.payload,
      secrets,
    }),
    body: row.payload,
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
  });
  const ok = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
  const entry = {
    delivery_id: row.id,
    attempt: row.attempt + 1,
    at,
    status_code: answer.statusCode,
    duration_ms: answer.durationMs,
    error: ok ? null : answer.body.slice(0, ERROR_KEEP) || `HTTP ${answer.statusCode}`,
  };
  const failingSince = row.failing_since ?? at;
  const schedule = deps.schedule ?? NOTIFY_RETRY_SCHEDULE;
  const wait = schedule[Math.min(row.attempt, schedule.length - 1)] ?? 0;
  // A day of failures disables the webhook; the delivery stays pending, first in line once enabled again.
  const giveUp = !ok && at.getTime() - new Date(failingSince).getTime() >= FAILING_LIMIT_MS;
  const seconds = Math.max(wait, Math.min(answer.retryAfterSeconds ?? 0, RETRY_AFTER_MAX_SECONDS));
  const disabled = await deps.db.transaction().execute(async (trx) => {
    // Recorded only by the holder of this attempt: a process whose lease ran out records nothing.
    const next = {
      status: ok ? 'DELIVERED' : 'PENDING',
      nextAt: ok ? null : new Date(at.getTime() + seconds * 1000),
    } as const;
    if (!(await recordAttempt(trx, row, deps.owner, entry, next))) return false;
    if (ok) {
      run.delivered += 1;
      await setFailingSince(trx, row.webhook_id, null);
      // A removal is the chain's doing, not a new event of the customer's: not billed.
      if (row.kind !== 'REMOVED')
        await addUsage(trx, [
          {
            accountId: row.account_id,
            apiKeyId: null,
            resource: notifyResource(row.network as Network),
            date: utcDay(at),
            usage: 1,
            computeUnits: null,
          },
        ]);
      return false;
    }
    if (!giveUp) {
      run.retried += 1;
      await setFailingSince(trx, row.webhook_id, failingSince);
      return false;
    }
    run.failed += 1;
    return disableFailing(trx, row.webhook_id, NotifyMessages.disabledAfterFailures);
  });
  if (disabled) {
    run.disabled += 1;
    await tellDisabled(deps, row).catch(() => undefined);
  }
}

/** E-mails the account's owner that a webhook was disabled after a day of failed deliveries. */
async function tellDisabled(deps: SenderDeps, row: ClaimedDelivery): Promise<void> {
  const webhook = await webhookName(deps.db, row.webhook_id);
  const account = await findAccountOwner(deps.db, row.account_id);
  const email = account ? await findUserEmail(deps.db, account.ownerId) : undefined;
  if (!webhook || !account || !email) return;
  await deps.mailer.send({
    to: email,
    subject: `Your ${deps.productName} webhook ${quotedName(webhook.name)} has been disabled`,
    text: `The address-activity webhook ${quotedName(webhook.name)} of the account ${quotedName(account.name)} could not deliver to ${row.url} for 24 hours, so it has been disabled. Its undelivered messages are kept: fix the receiver, then enable the webhook in Services → Webhooks and they are sent again in order.`,
  });
}
