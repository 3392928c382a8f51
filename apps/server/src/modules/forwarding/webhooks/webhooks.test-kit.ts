import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { Db } from '../../../db/database.ts';
import { seal } from '../../../secrets.ts';
import { WEBHOOK_COMPLETED_TYPE, webhookPayload } from './test-webhook.ts';
import { newWebhookId } from './webhook-signature.ts';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (to see a timeout). */
  hang?: boolean;
}

/**
 * A local webhook receiver: answers each request with the next of `answers` (the last one again
 * once they run out) and keeps every request it got.
 */
export async function startReceiver(answers: Answer[], host = '127.0.0.1') {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers[Math.min(received.length, answers.length) - 1] ?? { status: 200 };
      if (answer.hang) return;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/hook`,
    origin,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const address = () => `0x${randomBytes(20).toString('hex')}`;

export interface DueWebhookWallet {
  url: string | null;
  header?: string;
  headerValue?: string;
  deleted?: boolean;
}

/** A wallet of the account and a completed forward of it whose webhook is due now. */
export async function insertDueWebhook(db: Db, dataKey: Buffer, accountId: string, wallet: DueWebhookWallet) {
  const { id: walletId } = await db
    .insertInto('token_forwarding_wallets')
    .values({
      account_id: accountId,
      network: 'ETHEREUM_SEPOLIA',
      token: 'ETH',
      key_index: sql<number>`nextval('wallet_key_index')`,
      address: address(),
      minimum_forwarding_amount: '0.1',
      destination_address: address(),
      webhook_url: wallet.url,
      webhook_header: wallet.header ?? null,
      webhook_header_value: wallet.headerValue ? seal(dataKey, wallet.headerValue) : null,
      deleted_at: wallet.deleted ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const webhookId = newWebhookId();
  const payload = webhookPayload(WEBHOOK_COMPLETED_TYPE, { tokenForwardingWalletId: walletId, amount: '1.5' });
  const { id } = await db
    .insertInto('token_forwarding_transactions')
    .values({
      account_id: accountId,
      wallet_id: walletId,
      network: 'ETHEREUM_SEPOLIA',
      token: 'ETH',
      from_address: address(),
      to_address: address(),
      amount: '1.5',
      original_balance: '1.5',
      status: 'COMPLETED',
      webhook_id: webhookId,
      webhook_payload: payload,
      webhook_status: 'PENDING',
      // A second ago: the database's clock counts microseconds and the job's counts milliseconds, so a
      // message stamped `now()` can be a fraction of a millisecond younger than the job's "now" right after.
      webhook_next_at: sql<Date>`now() - interval '1 second'`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, webhookId, payload };
}

/**
 * What a receiver holding `secret` makes of a delivery, checked with the standardwebhooks library
 * on a clock set to the delivery's own time (deliveries in tests are sent at an injected time):
 * 'verified', or the library's reason for refusing it.
 */
export function receiverVerdict(secret: string, request: Received): string {
  const sentAt = Number(request.headers['webhook-timestamp']) * 1000;
  vi.useFakeTimers({ now: sentAt, toFake: ['Date'] });
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return 'verified';
  } catch (error) {
    return (error as Error).message;
  } finally {
    vi.useRealTimers();
  }
}
