import { createServer } from 'node:http';
import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { openDatabase } from '../../db/database.ts';
import { freePort } from '../../testing/anvil.ts';
import { pglite, testDatabases } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { serverFor, startServer } from '../../testing/server.ts';

const CHAIN_ID = { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] };

describe('the RPC gateway on the embedded default (a local Anvil node per network)', () => {
  const server = serverFor(pglite, { RPC_MAX_BODY_BYTES: '4096', RPC_MAX_BATCH: '5', USAGE_FLUSH_SECONDS: '60' });

  it('answers with each network’s own chain id through the key in the query or in headers', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const mainnet = await rpcCall(holder.url('ethereum/mainnet'), CHAIN_ID);
    expect(mainnet).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 7, result: '0x1' } });
    const sepolia = await rpcCall(`${server().url}/api/v1.0/rpc/ethereum/sepolia`, CHAIN_ID, {
      'content-type': 'application/json',
      'x-api-key-id': holder.keyId,
      'x-api-key': holder.key,
    });
    expect(sepolia.body.result).toBe(`0x${(11155111).toString(16)}`);
    // Browsers may call it from any origin (a dapp), after a preflight for the key headers.
    expect(sepolia.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(`${server().url}/api/v1.0/rpc/ethereum/sepolia`, {
      method: 'OPTIONS',
      headers: { origin: 'https://dapp.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'content-type, authorization, x-api-key-id, x-api-key',
    );
    // The node's own length is kept (no chunked re-encoding).
    expect(mainnet.headers.get('content-length')).toBe(String(JSON.stringify(mainnet.body).length));
  });

  it('refuses what is not JSON-RPC with a JSON-RPC error and a clear message', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url('polygon/mainnet');
    const cases: Array<[unknown, number, number, string]> = [
      ['{not json', 400, RpcErrorCodes.parseError, RpcMessages.notJson],
      ['', 400, RpcErrorCodes.parseError, RpcMessages.notJson],
      [{ hello: 'world' }, 400, RpcErrorCodes.invalidRequest, RpcMessages.notJsonRpc],
      [{ jsonrpc: '1.0', method: 'eth_chainId' }, 400, RpcErrorCodes.invalidRequest, RpcMessages.notJsonRpc],
      [[], 400, RpcErrorCodes.invalidRequest, RpcMessages.notJsonRpc],
      [[CHAIN_ID, 1], 400, RpcErrorCodes.invalidRequest, RpcMessages.notJsonRpc],
      [Array(6).fill(CHAIN_ID), 400, RpcErrorCodes.invalidRequest, RpcMessages.batchTooLarge(5)],
      [{ ...CHAIN_ID, params: ['x'.repeat(5000)] }, 413, RpcErrorCodes.invalidRequest, RpcMessages.tooLarge(4096)],
    ];
    for (const [body, status, code, message] of cases) {
      const answer = await rpcCall(url, body);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status,
        body: { jsonrpc: '2.0', id: null, error: { code, message } },
      });
    }
    // The id of a single request that is not valid is still echoed when it has one.
    expect((await rpcCall(url, { id: 3, method: 'eth_chainId' })).body.id).toBe(3);
  });

  it('refuses an unknown network and a missing or wrong key', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const unknown = await rpcCall(holder.url('ethereum/goerli'), CHAIN_ID);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({
      code: RpcErrorCodes.notFound,
      message: RpcMessages.unknownNetwork('ethereum/goerli'),
    });
    const missing = await rpcCall(`${server().url}/api/v1.0/rpc/ethereum/mainnet`, CHAIN_ID);
    expect([missing.status, missing.body.error?.message]).toEqual([401, RpcMessages.missingKey]);
    for (const url of [
      holder
        .url('ethereum/mainnet')
        .replace(holder.key, `${holder.key.slice(0, -1)}${holder.key.endsWith('A') ? 'B' : 'A'}`),
      holder.url('ethereum/mainnet').replace(holder.keyId, '00000000-0000-4000-8000-000000000000'),
      holder.url('ethereum/mainnet').replace(holder.keyId, 'not-a-uuid'),
    ]) {
      const wrong = await rpcCall(url, CHAIN_ID);
      expect([wrong.status, wrong.body.error?.message]).toEqual([401, RpcMessages.wrongKey]);
    }
  });

  it('refuses an inactive key, a deleted key and a suspended account, and serves again once allowed', async () => {
    const holder = await accountWithKey(server().url, server().db, '0.00003');
    const { client, headers, keyId } = holder;
    const url = holder.url('bsc/mainnet');
    expect((await rpcCall(url, CHAIN_ID)).status).toBe(200);

    await client.post(`/api/v1.0/key/${keyId}/deactivate`, undefined, headers);
    const inactive = await eventually(
      () => rpcCall(url, CHAIN_ID),
      (a) => a.status !== 200,
    );
    expect([inactive.status, inactive.body.error?.message]).toEqual([403, RpcMessages.inactiveKey]);
    await client.post(`/api/v1.0/key/${keyId}/activate`, undefined, headers);
    expect(
      (
        await eventually(
          () => rpcCall(url, CHAIN_ID),
          (a) => a.status === 200,
        )
      ).body.result,
    ).toBe('0x38');

    // The chain id costs nothing; credit for one read at 0.00002: the flush of the second suspends the account.
    const read = { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] };
    for (let i = 0; i < 2; i++) expect((await rpcCall(url, read)).status).toBe(200);
    await server().deps.rpc.meter.flush();
    const suspended = await eventually(
      () => rpcCall(url, CHAIN_ID),
      (a) => a.status !== 200,
    );
    expect([suspended.status, suspended.body.error?.code, suspended.body.error?.message]).toEqual([
      403,
      RpcErrorCodes.forbidden,
      RpcMessages.suspended,
    ]);
    expect(RpcMessages.suspended).toContain('top up credits');

    await client.post(`/api/v1.0/key/${keyId}/deactivate`, undefined, headers);
    await client.call('DELETE', `/api/v1.0/key/${keyId}`, { headers });
    const deleted = await eventually(
      () => rpcCall(url, CHAIN_ID),
      (a) => a.body.error?.message === RpcMessages.deletedKey,
    );
    expect(deleted.status).toBe(401);
  });

  it('meters each call of a batch as one request, per key, resource and day, without a database write per call', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url('aurora/testnet');
    const batch = await rpcCall(url, [
      CHAIN_ID,
      { ...CHAIN_ID, id: 8, method: 'eth_blockNumber' },
      { ...CHAIN_ID, id: 9 },
    ]);
    expect(batch.body.map((a) => a.id)).toEqual([7, 8, 9]);
    await rpcCall(url, CHAIN_ID);
    await rpcCall(holder.url('aurora/mainnet'), CHAIN_ID);
    // Refused calls are not metered.
    await rpcCall(url, '{oops');

    const before = await usageOf(server().db, holder.accountId);
    expect(before).toEqual([]);
    await server().deps.rpc.meter.flush();
    expect(await usageOf(server().db, holder.accountId)).toEqual([
      { resource_name: 'RPC_API_AURORA_MAINNET', usage: '1', status: 'PENDING' },
      { resource_name: 'RPC_API_AURORA_TESTNET', usage: '4', status: 'PENDING' },
    ]);
  });
});

/** Polls a call until its answer passes, for at most one second (the gateway's promise). */
async function eventually<T>(call: () => Promise<T>, done: (answer: T) => boolean, withinMs = 1000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const answer = await call();
    if (done(answer) || Date.now() - start > withinMs) return answer;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const usageOf = (db: Db, accountId: string) =>
  db
    .selectFrom('account_resource_usage')
    .select(['resource_name', sql<string>`usage::text`.as('usage'), 'status'])
    .where('account_id', '=', accountId)
    .orderBy('resource_name')
    .execute();

describe('the gateway’s limits and upstream failures', () => {
  const server = serverFor(pglite, { RPC_RATE_LIMIT_PER_SECOND: '3', USAGE_FLUSH_SECONDS: '60' });

  it('answers HTTP 429 with a readable message past the per-key rate, and counts only what it served', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const answers = await Promise.all(Array.from({ length: 6 }, () => rpcCall(holder.url('polygon/amoy'), CHAIN_ID)));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(3);
    expect(limited[0]?.body.error).toEqual({ code: RpcErrorCodes.rateLimited, message: RpcMessages.rateLimited(3) });
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(server().deps.rpc.meter.unflushed).toBe(answers.length - limited.length);
  });

  it('answers a clear JSON-RPC error when no upstream of a network answers', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const opened = await pglite.open();
    const broken = await startServer(opened.db, {
      RPC_UPSTREAMS: JSON.stringify({ 'bsc/testnet': [dead, dead.replace('127.0.0.1', 'localhost')] }),
    });
    try {
      const holder = await accountWithKey(broken.url, broken.db);
      const answer = await rpcCall(holder.url('bsc/testnet'), CHAIN_ID);
      expect([answer.status, answer.body]).toEqual([
        502,
        {
          jsonrpc: '2.0',
          id: 7,
          error: { code: RpcErrorCodes.upstream, message: RpcMessages.upstreamFailed('BSC Testnet') },
        },
      ]);
      await broken.deps.rpc.meter.flush();
      expect(await usageOf(broken.db, holder.accountId)).toEqual([]);
    } finally {
      await broken.close();
      await opened.close();
    }
  });
});

describe('the gateway’s upstream timeout and its local nodes', () => {
  it('answers 504 when the upstream does not answer in time, and stops its local nodes with the server', async () => {
    // An upstream that accepts connections and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const opened = await pglite.open();
    const server = await startServer(opened.db, {
      RPC_UPSTREAMS: JSON.stringify({ 'polygon/mainnet': [`http://127.0.0.1:${port}`] }),
      RPC_TIMEOUT_MS: '300',
    });
    let nodeUrl = '';
    try {
      const holder = await accountWithKey(server.url, server.db);
      const answer = await rpcCall(holder.url('polygon/mainnet'), CHAIN_ID);
      expect([answer.status, answer.body.error?.message]).toEqual([
        504,
        RpcMessages.upstreamTimeout('Polygon Mainnet'),
      ]);
      // A network without upstreams gets a local node on first use.
      expect((await rpcCall(holder.url('polygon/amoy'), CHAIN_ID)).body.result).toBe('0x13882');
      nodeUrl = (await server.deps.rpc.localNodeUrl('polygon/amoy')) ?? '';
      expect(nodeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await server.close();
      await opened.close();
      silent.close();
    }
    await expect(fetch(nodeUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes sharing one PostgreSQL', () => {
  const server = serverFor(testDatabases.find((d) => d.name === 'postgres') ?? pglite);

  it('a key deactivated through one process is refused by the other within one second', async () => {
    const { name } = await server()
      .db.selectNoFrom(sql<string>`current_database()`.as('name'))
      .executeTakeFirstOrThrow();
    const otherDb = await openDatabase({ url: String(process.env.TEST_DATABASE_URL).replace(/\/[^/]*$/, `/${name}`) });
    const other = await startServer(otherDb);
    try {
      const holder = await accountWithKey(server().url, server().db);
      const viaOther = holder.url('ethereum/mainnet').replace(server().url, other.url);
      expect((await rpcCall(viaOther, CHAIN_ID)).status).toBe(200);
      const started = Date.now();
      await holder.client.post(`/api/v1.0/key/${holder.keyId}/deactivate`, undefined, holder.headers);
      const refused = await eventually(
        () => rpcCall(viaOther, CHAIN_ID),
        (a) => a.status === 403,
      );
      expect(refused.body.error?.message).toBe(RpcMessages.inactiveKey);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await other.close();
      await otherDb.destroy();
    }
  });
});
