import { request as httpRequest } from 'node:http';
import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { Client, uniqueEmail } from '../testing/client.ts';
import { testDatabases } from '../testing/databases.ts';
import { accountWithKey, rpcCall } from '../testing/keys.ts';
import { reportFigures } from '../testing/report.ts';
import { serverFor } from '../testing/server.ts';

const MIB = 1024 * 1024;
const RPC_LIMIT = 4096;
const CHAIN_ID = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };

/** Sends a body in chunks with no Content-Length, as a streaming client does; answers the status and body. */
function streamed(url: string, path: string, headers: Record<string, string>, chunks: Buffer[]) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // The server may answer and close before the whole body is written.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('request size limits', () => {
  const server = serverFor(testDatabases[0]!, { RPC_MAX_BODY_BYTES: String(RPC_LIMIT), RPC_MAX_BATCH: '5' });
  const refused = { answers: 0 };
  const count = async (table: 'users' | 'accounts' | 'account_resource_usage') =>
    Number(
      (
        await server()
          .db.selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const expectTooLarge = (answer: { status: number; body: unknown }) => {
    expect(answer).toMatchObject({ status: 413, body: { statusCode: 413, message: 'Request body is too large' } });
    refused.answers++;
  };

  it('refuses an API body over 1 MiB with 413 in the error wrapper, and creates nothing', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const accounts = await count('accounts');
    expectTooLarge(await c.post('/api/v1.0/account', { accountName: 'x'.repeat(MIB) }, { 'ebs-account-id': '' }));
    const chunks = Array.from({ length: 17 }, () => Buffer.alloc(64 * 1024, 'a'));
    const answer = await streamed(
      server().url,
      '/api/v1.0/account',
      { 'content-type': 'application/json', authorization: `Bearer ${c.idToken}`, 'ebs-account-id': '' },
      [Buffer.from('{"accountName":"'), ...chunks, Buffer.from('"}')],
    );
    expectTooLarge({ status: answer.status, body: JSON.parse(answer.body) });
    expect(await count('accounts')).toBe(accounts);
    // Just under the limit is read (and refused by the rules, not by size).
    const under = await c.post('/api/v1.0/account', { accountName: 'x'.repeat(MIB - 100) }, { 'ebs-account-id': '' });
    expect(under.status).toBe(400);
  });

  it('refuses an identity body over 1 MiB with 413 before any user is made', async () => {
    const users = await count('users');
    const body = { email: uniqueEmail(), password: 'violet tram 84', givenName: 'x'.repeat(MIB), familyName: 'B' };
    expectTooLarge(await new Client(server().url).post('/auth/sign-up', body));
    expect(await count('users')).toBe(users);
  });

  it('refuses a gateway body over RPC_MAX_BODY_BYTES and a batch over RPC_MAX_BATCH, metering nothing', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url('ethereum/mainnet');
    const big = await rpcCall(url, { ...CHAIN_ID, params: ['x'.repeat(RPC_LIMIT)] });
    expect(big).toMatchObject({
      status: 413,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: RpcErrorCodes.invalidRequest, message: RpcMessages.tooLarge(RPC_LIMIT) },
      },
    });
    const batch = await rpcCall(url, Array(6).fill(CHAIN_ID));
    expect(batch).toMatchObject({
      status: 400,
      body: { error: { code: RpcErrorCodes.invalidRequest, message: RpcMessages.batchTooLarge(5) } },
    });
    refused.answers += 2;
    await server().deps.rpc.meter.flush();
    const usage = await server()
      .db.selectFrom('account_resource_usage')
      .select('id')
      .where('account_id', '=', holder.accountId)
      .execute();
    expect(usage).toEqual([]);
  });

  it('refuses headers over 16 KB with 431 and keeps answering', async () => {
    const answer = await fetch(`${server().url}/api/v1.0/config`, { headers: { 'x-filler': 'x'.repeat(20_000) } });
    expect(answer.status).toBe(431);
    refused.answers++;
    expect((await fetch(`${server().url}/api/v1.0/config`)).status).toBe(200);
    reportFigures('hardening: request size limits', { 'oversized requests refused': refused.answers });
  });
});
