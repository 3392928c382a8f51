import { createHash } from 'node:crypto';
import type { ApiKey, ApiKeyList, CreatedApiKey } from '@ebs/contract';
import { expect } from 'vitest';
import { type Answer, Client } from '../../testing/client.ts';
import type { TestServer } from '../../testing/server.ts';

/** Helpers shared by the key route tests. */

export const KEY = '/api/v1.0/key';
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000001';
export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A signed-up user with an account of their own, calling the key routes as the console does. */
export async function keyUser(server: TestServer) {
  const c = new Client(server.url);
  const user = await c.signUp();
  const newAccount = async (accountName = 'Keys') =>
    (await c.post<{ id: string }>('/api/v1.0/account', { accountName })).body.data.id;
  const accountId = await newAccount();
  const h = { 'ebs-account-id': accountId };
  const create = (apiKeyName: unknown, headers = h) => c.post<CreatedApiKey>(`${KEY}/`, { apiKeyName }, headers);
  const createOk = async (name: string) => {
    const answer = await create(name);
    expect(answer.status).toBe(200);
    return answer.body.data;
  };
  const list = async (query = 'limit=100&offset=0') => (await c.get<ApiKeyList>(`${KEY}?${query}`, h)).body.data;
  const post = <T = ApiKey>(path: string, body?: unknown, headers = h) =>
    c.call<T>('POST', `${KEY}/${path}`, { body, headers });
  const remove = (id: string, headers = h) => c.call('DELETE', `${KEY}/${id}`, { headers });
  return { c, ...user, accountId, h, newAccount, create, createOk, list, post, remove };
}

/** The whole stored row, hash included: the tests look for the clear key in all of it. */
export const keyRow = (server: TestServer, id: string) =>
  server.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const liveKeyCount = async (server: TestServer, accountId: string) =>
  (
    await server.db
      .selectFrom('api_keys')
      .select('id')
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .execute()
  ).length;

export function expectRefused(answer: Answer, status: number, message: string) {
  expect({ status: answer.status, message: answer.body.message }).toEqual({ status, message });
}

// Seeds and reads for other modules' tests: the way into this module's tables from outside it.
export { insertKey } from './keys.store.ts';
