import type { WebhookAttempt } from '@ebs/contract';
import { sql } from 'kysely';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/database.ts';
import { unseal } from '../../../secrets.ts';
import { signingSecretsInForce } from '../../accounts/index.ts';
import { postWebhook } from './webhook-delivery.ts';
import { webhookHeaders } from './webhook-signature.ts';

/**
 * Seconds to wait after the 1st, 2nd... failed attempt: seconds, then minutes, then hours, about
 * three days in all (ARCHITECTURE §6); FAILED after the last, the 12th attempt.
 */
export const WEBHOOK_RETRY_SCHEDULE = [5, 30, 120, 600, 1800, 3600, 10800, 21600, 43200, 86400, 86400];

/** A target's Retry-After is honoured up to a day. */
const RETRY_AFTER_MAX_SECONDS = 86_400;
/** Longer than the longest attempt (WEBHOOK_TIMEOUT_MS is at most a minute). */
const LEASE_MS = 2 * 60_000;
const WORKERS = 4;
const MAX_PER_RUN = 500;

export interface WebhookDeliveryDeps {
  db: Db;
  dataKey: Buffer;
  config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_TARGETS' | 'WEBHOOK_TIMEOUT_MS'>;
  now?: () => Date;
  schedule?: number[];
  /** Recorded with each lease, so that a process started after a crash can take back this one's. */
  owner?: string;
}

export interface WebhookDeliveryRun {
  delivered: number;
  /** Given up: the last attempt failed, or there is nothing to send to. */
  failed: number;
  /** Failed this time, tried again later. */
  retried: number;
  /** Messages that could not be attempted this run (their lease runs out and they are tried again). */
  errors: string[];
}

interface Claimed {
  id: string;
  account_id: string;
  wallet_id: string;
  webhook_id: string | null;
  webhook_payload: string | null;
  webhook_attempt: number;
}

/**
 * Delivers due webhooks of token forwarding transactions, one attempt per message per run. A
 * message is leased in the statement that picks it (skipping rows another process holds) and the
 * lease is committed before the POST, so two processes never send the same attempt; each attempt is
 * recorded in webhook_log only by the run that holds it.
 */
export async function deliverWebhooks(deps: WebhookDeliveryDeps): Promise<WebhookDeliveryRun> {
  const run: WebhookDeliveryRun = { delivered: 0, failed: 0, retried: 0, errors: [] };
  const seen = new Set<string>();
  const worker = async () => {
    while (seen.size < MAX_PER_RUN) {
      const row = await claimNext(deps, [...seen]);
      if (!row) return;
      seen.add(row.id);
      try {
        await attempt(deps, row, run);
      } catch (error) {
        run.errors.push(`${row.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return run;
}

const clock = (deps: WebhookDeliveryDeps) => deps.now?.() ?? new Date();

async function claimNext(deps: WebhookDeliveryDeps, skip: string[]): Promise<Claimed | undefined> {
  const now = clock(deps);
  const { db } = deps;
  return db
    .updateTable('token_forwarding_transactions')
    .set({ webhook_lease_until: new Date(now.getTime() + LEASE_MS), webhook_lease_owner: deps.owner ?? null })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('token_forwarding_transactions')
        .select('id')
        .where('webhook_status', '=', 'PENDING')
        .where('webhook_next_at', '<=', now)
        .where((w) => w.or([w('webhook_lease_until', 'is', null), w('webhook_lease_until', '<', now)]))
        .$if(skip.length > 0, (q) => q.where('id', 'not in', skip))
        .orderBy('webhook_next_at')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'account_id', 'wallet_id', 'webhook_id', 'webhook_payload', 'webhook_attempt'])
    .executeTakeFirst();
}

async function attempt(deps: WebhookDeliveryDeps, row: Claimed, run: WebhookDeliveryRun): Promise<void> {
  const wallet = await deps.db
    .selectFrom('token_forwarding_wallets')
    .select(['webhook_url', 'webhook_header', 'webhook_header_value', 'deleted_at'])
    .where('id', '=', row.wallet_id)
    .executeTakeFirst();
  const url = wallet?.webhook_url ?? '';
  const giveUp = (why: string) =>
    record(deps, row, { url, statusCode: null, durationMs: 0, response: why }, 'FAILED', null).then((done) => {
      if (done) run.failed += 1;
    });
  if (!wallet || wallet.deleted_at) return giveUp('The wallet has been deleted; the webhook was not sent.');
  if (!wallet.webhook_url) return giveUp('The wallet has no webhook URL; the webhook was not sent.');
  if (!row.webhook_id || row.webhook_payload === null) {
    return giveUp('The transaction has no webhook message; the webhook was not sent.');
  }

  const at = clock(deps);
  const secrets = await signingSecretsInForce(deps.db, deps.dataKey, row.account_id, at);
  const headerValue = wallet.webhook_header_value ? unseal(deps.dataKey, wallet.webhook_header_value) : null;
  let headers: Record<string, string>;
  try {
    headers = webhookHeaders({
      id: row.webhook_id,
      timestamp: Math.floor(at.getTime() / 1000),
      body: row.webhook_payload,
      secrets,
      header: wallet.webhook_header,
      headerValue,
    });
  } catch (error) {
    // A header the wallet should never have been given: no later attempt could send it either.
    return giveUp((error as Error).message);
  }
  const answer = await postWebhook({
    url: wallet.webhook_url,
    headers,
    body: row.webhook_payload,
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
  });
  const entry = { url, statusCode: answer.statusCode, durationMs: answer.durationMs, response: answer.body };

  if (answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300) {
    if (await record(deps, row, entry, 'DELIVERED', null, at)) run.delivered += 1;
    return;
  }
  const schedule = deps.schedule ?? WEBHOOK_RETRY_SCHEDULE;
  const wait = schedule[row.webhook_attempt];
  if (wait === undefined) {
    if (await record(deps, row, entry, 'FAILED', null, at)) run.failed += 1;
    return;
  }
  const seconds = Math.max(wait, Math.min(answer.retryAfterSeconds ?? 0, RETRY_AFTER_MAX_SECONDS));
  if (await record(deps, row, entry, 'PENDING', new Date(at.getTime() + seconds * 1000), at)) run.retried += 1;
}

/**
 * Appends the attempt and sets what follows. Only while the row is still at the attempt this run
 * claimed: a run whose lease ran out must not record over the one that took the message over.
 */
async function record(
  deps: WebhookDeliveryDeps,
  row: Claimed,
  entry: Omit<WebhookAttempt, 'attempt' | 'at'>,
  status: 'PENDING' | 'DELIVERED' | 'FAILED',
  nextAt: Date | null,
  at = clock(deps),
): Promise<boolean> {
  const attempt: WebhookAttempt = { attempt: row.webhook_attempt + 1, at: at.toISOString(), ...entry };
  const result = await deps.db
    .updateTable('token_forwarding_transactions')
    .set({
      webhook_status: status,
      webhook_attempt: attempt.attempt,
      webhook_log: sql`webhook_log || ${JSON.stringify([attempt])}::jsonb`,
      webhook_next_at: nextAt,
      webhook_lease_until: null,
      webhook_lease_owner: null,
      updated_at: sql`now()`,
    })
    .where('id', '=', row.id)
    .where('webhook_status', '=', 'PENDING')
    .where('webhook_attempt', '=', row.webhook_attempt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
