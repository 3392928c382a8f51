import {
  hasControlCharacters,
  type MethodSeries,
  type MethodStatList,
  type RequestLogList,
  RpcErrorCodes,
} from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../app/commands.ts';
import { testDatabases } from '../../testing/databases.ts';
import { accountWithKey, type KeyHolder, rpcCall } from '../../testing/keys.ts';
import { serverFor } from '../../testing/server.ts';
import { insertTransaction } from '../ledger/ledger.test-kit.ts';

const NETWORK = 'ethereum/mainnet';
const PATH = NETWORK;

const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

/** A CSV download as a browser would fetch it: the identity token and the account header. */
async function download(holder: KeyHolder, path: string) {
  const response = await fetch(holder.client.baseUrl + path, {
    headers: { authorization: `Bearer ${holder.client.idToken}`, ...holder.headers },
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe.each(testDatabases)('the gateway’s insight on $name', (database) => {
  const server = serverFor(database, { USAGE_FLUSH_SECONDS: '60', RPC_MAX_BATCH: '5' });

  /** Three methods, one call of which fails at the node, one the method policy refuses, one limit refusal aside. */
  async function traffic(holder: KeyHolder) {
    const url = holder.url(NETWORK);
    const headers = { 'content-type': 'application/json', origin: 'https://dapp.example' };
    for (let i = 0; i < 3; i++) expect((await rpcCall(url, call('eth_chainId'), headers)).status).toBe(200);
    expect((await rpcCall(url, call('eth_blockNumber'), headers)).status).toBe(200);
    const batch = await rpcCall(
      url,
      [call('eth_blockNumber', [], 1), call('eth_getBalance', ['not an address'], 2)],
      headers,
    );
    expect(batch.body.find((a) => a.id === 2)?.error).toBeDefined();
    const refused = await rpcCall(url, call('eth_sign', []), headers);
    expect(refused.body.error?.code).toBe(RpcErrorCodes.methodNotAvailable);
    expect((await rpcCall(url, '{oops', headers)).status).toBe(400);
    await server().deps.rpc.insight.flush();
  }

  it('counts every call per method and network, errors included, with latency percentiles', async () => {
    const holder = await accountWithKey(server().url, server().db);
    await traffic(holder);
    const today = new Date().toISOString().slice(0, 10);
    const answer = await holder.client.get<MethodStatList>(
      `/api/v1.0/usage/api/methods?dateStart=${today}&dateEnd=${today}`,
      holder.headers,
    );
    expect(answer.status).toBe(200);
    const byMethod = Object.fromEntries(answer.body.data.methods.map((m) => [m.method, m]));
    expect(Object.keys(byMethod).sort()).toEqual([
      '(invalid)',
      'eth_blockNumber',
      'eth_chainId',
      'eth_getBalance',
      'eth_sign',
    ]);
    expect(byMethod.eth_chainId).toMatchObject({
      network: PATH,
      calls: 3,
      errors: 0,
      computeUnits: expect.any(Number),
    });
    expect(byMethod.eth_blockNumber).toMatchObject({ calls: 2, errors: 0 });
    expect(byMethod.eth_getBalance).toMatchObject({ calls: 1, errors: 1 });
    expect(byMethod.eth_sign).toMatchObject({ calls: 1, errors: 1 });
    // A body the gateway could not read (HTTP 400) is refused, not an error of a method.
    expect(byMethod['(invalid)']).toMatchObject({ calls: 1, errors: 0, refused: 1 });
    expect(byMethod.eth_getBalance).toMatchObject({ refused: 0 });
    // Most called first; latency is measured.
    expect(answer.body.data.methods[0]?.method).toBe('eth_chainId');
    expect(byMethod.eth_chainId?.p50Ms).toBeGreaterThan(0);
    expect(byMethod.eth_chainId?.p95Ms).toBeGreaterThanOrEqual(byMethod.eth_chainId?.p50Ms ?? 0);

    // Filters: another network, another key, the last hours.
    const elsewhere = await holder.client.get<MethodStatList>(
      '/api/v1.0/usage/api/methods?network=polygon%2Fmainnet',
      holder.headers,
    );
    expect(elsewhere.body.data.methods).toEqual([]);
    const lastHours = await holder.client.get<MethodStatList>(
      `/api/v1.0/usage/api/methods?hours=1&apiKeyId=${holder.keyId}&network=${encodeURIComponent(PATH)}`,
      holder.headers,
    );
    expect(lastHours.body.data.methods.map((m) => m.calls).reduce((a, b) => a + b)).toBe(8);
    const series = await holder.client.get<MethodSeries>('/api/v1.0/usage/api/methods/series?hours=24', holder.headers);
    expect(series.body.data.interval).toBe('hour');
    expect(series.body.data.points.filter((p) => p.method === 'eth_chainId').map((p) => p.calls)).toEqual([3]);
    expect(series.body.data.latency).toHaveLength(1);

    // Another account sees none of it.
    const stranger = await accountWithKey(server().url, server().db);
    const theirs = await stranger.client.get<MethodStatList>('/api/v1.0/usage/api/methods', stranger.headers);
    expect(theirs.body.data.methods).toEqual([]);
  });

  it('answers each method’s compute units in its figures and in its chart', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const { insight } = server().deps.rpc;
    const seen = {
      accountId: holder.accountId,
      apiKeyId: holder.keyId,
      network: PATH,
      clientIp: '203.0.113.7',
      origin: undefined,
    };
    const one = (method: string) => ({ method, calls: 1 });
    insight.record(seen, [one('eth_getLogs')], 200, 2, undefined, undefined, 90, undefined, [25]);
    insight.record(
      seen,
      [one('eth_call'), one('eth_blockNumber')],
      200,
      3,
      undefined,
      undefined,
      150,
      undefined,
      [5, 1],
    );
    await insight.flush();

    const answer = await holder.client.get<MethodStatList>('/api/v1.0/usage/api/methods?hours=1', holder.headers);
    expect(answer.status).toBe(200);
    expect(answer.body.data.methods.map((m) => [m.method, m.calls, m.computeUnits]).sort()).toEqual([
      ['eth_blockNumber', 1, 1],
      ['eth_call', 1, 5],
      ['eth_getLogs', 1, 25],
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const series = await holder.client.get<MethodSeries>(
      `/api/v1.0/usage/api/methods/series?dateStart=${today}&dateEnd=${today}`,
      holder.headers,
    );
    expect(series.status).toBe(200);
    expect(series.body.data.points.map((p) => [p.method, p.computeUnits])).toEqual([
      ['eth_blockNumber', 1],
      ['eth_call', 5],
      ['eth_getLogs', 25],
    ]);
  });

  it('logs the failed requests, newest first, with who and where but never the key', async () => {
    const holder = await accountWithKey(server().url, server().db);
    await traffic(holder);
    const failed = await holder.client.get<RequestLogList>(
      '/api/v1.0/usage/api/requests?failedOnly=true',
      holder.headers,
    );
    expect(failed.status).toBe(200);
    const { requests, totalCount } = failed.body.data;
    expect(totalCount).toBe(3);
    expect(requests.map((r) => [r.methods, r.httpStatus, r.errorCode])).toEqual([
      [[], 400, RpcErrorCodes.parseError],
      [['eth_sign'], 200, RpcErrorCodes.methodNotAvailable],
      [['eth_blockNumber', 'eth_getBalance'], 200, expect.any(Number)],
    ]);
    expect(requests[0]).toMatchObject({
      apiKeyId: holder.keyId,
      apiKeyName: 'gateway key',
      network: PATH,
      clientIp: '127.0.0.1',
      origin: 'https://dapp.example',
    });
    // What the gateway answered each, and the body's length: the refusal's words, the policy's, the node's.
    expect(requests.map((r) => r.requestChars)).toEqual([5, expect.any(Number), expect.any(Number)]);
    expect(requests[0]?.errorMessage).toMatch(/./);
    expect(requests[1]?.errorMessage).toMatch(/eth_sign/);
    expect(requests[2]?.errorMessage).toMatch(/./);
    expect(JSON.stringify(failed.body)).not.toContain(holder.key);
    // Successful requests are sampled: these few are all kept.
    const all = await holder.client.get<RequestLogList>('/api/v1.0/usage/api/requests?limit=100', holder.headers);
    expect(all.body.data.totalCount).toBe(7);
    const byMethod = await holder.client.get<RequestLogList>(
      '/api/v1.0/usage/api/requests?method=eth_getBalance',
      holder.headers,
    );
    expect(byMethod.body.data.totalCount).toBe(1);
    const paged = await holder.client.get<RequestLogList>(
      '/api/v1.0/usage/api/requests?limit=2&offset=5',
      holder.headers,
    );
    expect(paged.body.data.requests).toHaveLength(2);
    expect(paged.body.data.requests[1]?.methods).toEqual(['eth_chainId']);
    // A successful request keeps no message, only its size.
    expect(paged.body.data.requests[1]).toMatchObject({ errorMessage: null, requestChars: expect.any(Number) });
  });

  it('counts the errors in a node’s answer passed on as sent and in one the gateway composed', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const address = `0x${'11'.repeat(20)}`;
    // At a block tag the cache never keeps these: the node's answer goes back as it is, and is
    // searched. At a block number the gateway reads each answer to keep it, and notes the errors.
    for (const block of ['latest', '0x0']) {
      const batch = await rpcCall(holder.url(NETWORK), [
        call('eth_getBalance', [address, block], 1),
        call('eth_getBalance', ['not an address', block], 2),
      ]);
      expect(batch.body.find((a) => a.id === 1)?.result).toBeDefined();
      expect(batch.body.find((a) => a.id === 2)?.error).toBeDefined();
      expect(batch.headers.get('x-cache')).toBe('MISS');
    }
    await server().deps.rpc.insight.flush();
    const answer = await holder.client.get<MethodStatList>('/api/v1.0/usage/api/methods?hours=1', holder.headers);
    expect(answer.body.data.methods.map((m) => [m.method, m.calls, m.errors])).toEqual([['eth_getBalance', 4, 2]]);
  });

  it('counts a call of a batch that the key’s rules refused as refused, its neighbour as called', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const saved = await holder.client.post(
      `/api/v1.0/key/${holder.keyId}/settings`,
      { allowedMethods: ['eth_chainId'] },
      holder.headers,
    );
    expect(saved.status).toBe(200);
    const url = holder.url(NETWORK);
    const batch = await rpcCall(url, [call('eth_chainId', [], 1), call('eth_gasPrice', [], 2)], {});
    expect(batch.status).toBe(200);
    expect(batch.body.find((a) => a.id === 2)?.error?.code).toBe(RpcErrorCodes.forbidden);
    await server().deps.rpc.insight.flush();
    const answer = await holder.client.get<MethodStatList>('/api/v1.0/usage/api/methods?hours=1', holder.headers);
    const byMethod = Object.fromEntries(answer.body.data.methods.map((m) => [m.method, m]));
    expect(byMethod.eth_gasPrice).toMatchObject({ calls: 1, errors: 0, refused: 1 });
    expect(byMethod.eth_chainId).toMatchObject({ calls: 1, errors: 0, refused: 0 });
  });

  it('keeps a message with control characters as text the log can store, and logs the others of the flush', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url(NETWORK);
    // A method name of a NUL and a line break: the refusal's message says it back.
    const odd = await rpcCall(url, call('\u0000x\nSECURITY NOTICE', []), {});
    expect(odd.body.error).toBeDefined();
    expect((await rpcCall(url, call('eth_sign', []), {})).body.error?.code).toBe(RpcErrorCodes.methodNotAvailable);
    await server().deps.rpc.insight.flush();
    const logged = await holder.client.get<RequestLogList>(
      '/api/v1.0/usage/api/requests?failedOnly=true',
      holder.headers,
    );
    expect(logged.body.data.totalCount).toBe(2);
    const messages = logged.body.data.requests.map((r) => r.errorMessage ?? '');
    expect(messages.some(hasControlCharacters)).toBe(false);
    expect(messages.some((m) => m.includes('eth_sign'))).toBe(true);
  });

  it('records nothing while the operator has switched it off, and records again once on', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const { db, deps } = server();
    const url = holder.url(NETWORK);
    const methods = async () => {
      await deps.rpc.insight.flush();
      const answer = await holder.client.get<MethodStatList>('/api/v1.0/usage/api/methods?hours=1', holder.headers);
      return answer.body.data.methods.map((m) => [m.method, m.calls]);
    };
    try {
      expect((await runCommand(db, ['rpc', 'insight', 'off'], {}, deps.rpc)).json).toEqual({ insight: false });
      expect((await rpcCall(url, call('eth_chainId'))).status).toBe(200);
      expect(await methods()).toEqual([]);
    } finally {
      await runCommand(db, ['rpc', 'insight', 'on'], {}, deps.rpc);
    }
    expect((await runCommand(db, ['rpc', 'insight'], {}, deps.rpc)).text).toContain('are on');
    expect((await rpcCall(url, call('eth_chainId'))).status).toBe(200);
    expect(await methods()).toEqual([['eth_chainId', 1]]);
    await expect(runCommand(db, ['rpc', 'insight', 'maybe'], {}, deps.rpc)).rejects.toThrow('Say "on" or "off"');
  });

  it('refuses a bad query with a clear error', async () => {
    const holder = await accountWithKey(server().url, server().db);
    for (const query of [
      'network=nowhere',
      'dateStart=2026-02-30',
      'dateStart=2026-03-02&dateEnd=2026-03-01',
      'dateStart=2024-01-01&dateEnd=2026-01-01',
      'hours=0',
      'apiKeyId=not-a-uuid',
    ]) {
      const answer = await holder.client.get(`/api/v1.0/usage/api/methods?${query}`, holder.headers);
      expect(answer.status, query).toBe(400);
    }
    for (const query of ['limit=101', 'failedOnly=maybe', 'httpStatus=99', 'network=nowhere']) {
      const answer = await holder.client.get(`/api/v1.0/usage/api/requests?${query}`, holder.headers);
      expect(answer.status, query).toBe(400);
    }
  });

  it('exports the transactions and the usage as CSV with the list’s filters', async () => {
    const holder = await accountWithKey(server().url, server().db, '0');
    const { db } = server();
    await insertTransaction(db, {
      accountId: holder.accountId,
      type: 'ADMIN_MANUAL_DEPOSIT',
      amount: '12.5',
      status: 'COMPLETED',
      metadata: { note: '=HYPERLINK("x"), "quoted"' },
    });
    await insertTransaction(db, {
      accountId: holder.accountId,
      type: 'WITHDRAW_RESOURCE_USAGE',
      amount: '-0.000123',
      status: 'COMPLETED',
    });
    const all = await download(holder, '/api/v1.0/transaction/export?order=asc');
    expect(all.status).toBe(200);
    expect(all.type).toBe('text/csv; charset=utf-8');
    const lines = all.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date,Description,Type,Amount (USD),Status,Transaction ID,Note');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      /,Manual deposit,ADMIN_MANUAL_DEPOSIT,12.5,COMPLETED,[0-9a-f-]{36},"'=HYPERLINK\(""x""\), ""quoted"""$/,
    );
    expect(lines[2]).toContain(',Resource usage withdrawal,WITHDRAW_RESOURCE_USAGE,-0.000123,');
    const filtered = await download(holder, '/api/v1.0/transaction/export?typeIn=WITHDRAW_RESOURCE_USAGE');
    expect(filtered.text.trimEnd().split('\r\n')).toHaveLength(2);

    await rpcCall(holder.url(NETWORK), call('eth_chainId'));
    await server().deps.rpc.meter.flush();
    const usage = await download(holder, '/api/v1.0/usage/api/billing/export?resourceNameIn=RPC_API_ETHEREUM_MAINNET');
    const usageLines = usage.text.trimEnd().split('\r\n');
    expect(usageLines[0]).toBe(
      'Date,Description,Resource,Requests,Compute Units,Unit price (USD),Price (USD),Status,API key ID',
    );
    expect(usageLines).toHaveLength(2);
    // eth_chainId is answered from the network's constants: a call of the free class, 0 compute units.
    expect(usageLines[1]).toContain(`,RPC_API_ETHEREUM_MAINNET,1,0,0.00002,0,PENDING,${holder.keyId}`);
    const none = await download(holder, '/api/v1.0/usage/api/billing/export?resourceNameIn=RPC_API_POLYGON_MAINNET');
    expect(none.text.trimEnd().split('\r\n')).toHaveLength(1);
    expect((await download(holder, '/api/v1.0/transaction/export?typeIn=NOPE')).status).toBe(400);
  });
});
