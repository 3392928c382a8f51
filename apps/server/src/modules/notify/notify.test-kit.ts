import type { AccountSummary, NotifyPayload } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { Client } from '../../testing/client.ts';
import { eventually } from '../forwarding/forwarding.test-kit.ts';
import type { Received } from '../forwarding/webhooks/webhooks.test-kit.ts';

/** A signed-up owner of a new account, with calls to its address-activity webhooks and its signing secret. */
export async function notifyAccount(baseUrl: string) {
  const client = new Client(baseUrl);
  await client.signUp();
  const created = await client.post<AccountSummary>(
    '/api/v1.0/account',
    { accountName: 'Watcher' },
    { 'ebs-account-id': '' },
  );
  const accountId = created.body.data.id;
  const headers = { 'ebs-account-id': accountId };
  const base = '/api/v1.0/notify/webhook';
  const api = {
    get: <T>(path = '') => client.get<T>(`${base}${path}`, headers),
    post: <T>(path = '', body?: unknown) => client.post<T>(`${base}${path}`, body, headers),
    patch: <T>(path: string, body: unknown) => client.call<T>('PATCH', `${base}${path}`, { body, headers }),
    delete: <T>(path: string) => client.call<T>('DELETE', `${base}${path}`, { headers }),
  };
  const secret = async () =>
    (await client.get<{ secret: string }>('/api/v1.0/account/signing-secret', headers)).body.data.secret;
  return { client, accountId, headers, api, secret };
}

/** The payloads a receiver got for one webhook, in the order it got them. */
export const payloadsFor = (received: Received[], webhookId: string): NotifyPayload[] =>
  received.map((r) => JSON.parse(r.body) as NotifyPayload).filter((p) => p.webhookId === webhookId);

/** Seeds a webhook watching one address, for other modules' tests (this module owns the notify_* tables). */
export async function insertWatchingWebhook(db: Db, accountId: string, input: { name: string; address: string }) {
  const { id } = await db
    .insertInto('notify_webhooks')
    .values({
      account_id: accountId,
      name: input.name,
      network: 'ETHEREUM_SEPOLIA',
      url: 'https://example.com/hook',
      categories: ['NATIVE'],
      confirmations: 0,
      address_count: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('notify_addresses').values({ webhook_id: id, address: input.address }).execute();
  return id;
}

/** A test server's settings for webhooks on a local Sepolia node, the engine turned by the test. */
export const notifyServerEnv = (anvilUrl: string) => ({
  RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': [anvilUrl] }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  NOTIFY_ENGINE: 'off',
});

/** Turns the engine until the receiver holds `count` deliveries of the webhook, and answers them. */
export const deliveredTo = (tick: () => Promise<unknown>, received: Received[], webhookId: string, count: number) =>
  eventually(async () => {
    await tick();
    const got = payloadsFor(received, webhookId);
    return got.length >= count && got;
  });
