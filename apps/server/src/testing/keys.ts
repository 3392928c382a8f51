import { type AccountSummary, type CreatedApiKey, rpcUrl } from '@ebs/contract';
import type { Db } from '../db/database.ts';
import { insertTransaction } from '../modules/ledger/ledger.test-kit.ts';
import { Client } from './client.ts';

export interface KeyHolder {
  client: Client;
  accountId: string;
  keyId: string;
  key: string;
  headers: Record<string, string>;
  /** The endpoint of a network as the RPC page shows it. */
  url(path: string): string;
}

/** A signed-up owner of an account credited with `credit` USD and one API key made through the API. */
export async function accountWithKey(baseUrl: string, db: Db, credit = '10'): Promise<KeyHolder> {
  const client = new Client(baseUrl);
  await client.signUp();
  const created = await client.post<AccountSummary>(
    '/api/v1.0/account',
    { accountName: 'Gateway' },
    { 'ebs-account-id': '' },
  );
  const accountId = created.body.data.id;
  if (Number(credit) > 0) {
    await insertTransaction(db, { accountId, type: 'ADMIN_MANUAL_DEPOSIT', amount: credit, status: 'COMPLETED' });
  }
  const headers = { 'ebs-account-id': accountId };
  const key = await client.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: 'gateway key' }, headers);
  if (key.status !== 200) throw new Error(`key creation failed: ${key.body.message}`);
  const { keyId, key: secret } = key.body.data.key;
  return { client, accountId, keyId, key: secret, headers, url: (path) => rpcUrl(baseUrl, path, keyId, secret) };
}

export interface RpcAnswer {
  jsonrpc?: string;
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Sends a raw body to the gateway and reads the JSON answer (a batch answers an array). */
export async function rpcCall(
  url: string,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; body: RpcAnswer & RpcAnswer[]; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text
  }
  return { status: response.status, body: parsed as RpcAnswer & RpcAnswer[], headers: response.headers };
}
