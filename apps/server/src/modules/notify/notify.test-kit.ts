import type { AccountSummary, NotifyPayload } from '@ebs/contract';
import { Client } from '../../testing/client.ts';
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
