import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { type ApiKeySettings, type CreatedApiKey, RpcErrorCodes, RpcMessages, rpcUrl } from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../testing/anvil.ts';
import { pglite } from '../../testing/databases.ts';
import { es256 } from '../../testing/jwt.ts';
import { accountWithKey, type KeyHolder, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';
import { WsClient } from '../../testing/ws-client.ts';

const NETWORK = 'ethereum/mainnet';
const node = await startAnvil(1);
afterAll(() => node.stop());
const UPSTREAMS = JSON.stringify({ [NETWORK]: [node.url, node.url.replace(/^http/, 'ws')] });
const CHAIN_ID = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };

const wsUrlOf = (httpUrl: string) => httpUrl.replace(/^http/, 'ws').replace(`/rpc/${NETWORK}`, `/rpc/${NETWORK}/ws`);

/** Another key of the holder's account, as its endpoint URL. */
async function anotherKey(holder: KeyHolder, baseUrl: string): Promise<string> {
  const made = await holder.client.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: 'more' }, holder.headers);
  expect(made.status).toBe(200);
  const { keyId, key } = made.body.data.key;
  return rpcUrl(baseUrl, NETWORK, keyId, key);
}

describe('a valid JWT after its address’s failed key checks', () => {
  const server = serverFor(pglite, { RPC_UPSTREAMS: UPSTREAMS, TRUST_PROXY: '1' });
  const from = (address: string, more: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    'x-forwarded-for': address,
    ...more,
  });

  it('is served behind an address that sent 60 wrong keys, where a wrong token is refused', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = ec.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const saved = await holder.client.post<ApiKeySettings>(
      `/api/v1.0/key/${holder.keyId}/settings`,
      { jwtPublicKeys: [{ pem }], jwtRequired: true },
      holder.headers,
    );
    expect(saved.status).toBe(200);
    const kid = saved.body.data.jwtPublicKeys[0]?.id ?? '';
    const token = es256(kid, Math.floor(Date.now() / 1000) + 600, ec.privateKey);
    const keyIdOnly = `${server().url}/api/v1.0/rpc/${NETWORK}?x-api-key-id=${holder.keyId}`;
    const neighbour = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const guess = holder.url(NETWORK).replace(holder.keyId, randomUUID());
      statuses.push((await rpcCall(guess, CHAIN_ID, from(neighbour))).status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(statuses[60]).toBe(429);
    const served = await rpcCall(keyIdOnly, CHAIN_ID, from(neighbour, { authorization: `Bearer ${token}` }));
    expect([served.status, served.body.result]).toEqual([200, '0x1']);
    // Again, now from the key cache.
    const again = await rpcCall(keyIdOnly, CHAIN_ID, from(neighbour, { authorization: `Bearer ${token}` }));
    expect([again.status, again.body.result]).toEqual([200, '0x1']);
    const forged = es256(
      kid,
      Math.floor(Date.now() / 1000) + 600,
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
    );
    const refused = await rpcCall(keyIdOnly, CHAIN_ID, from(neighbour, { authorization: `Bearer ${forged}` }));
    expect([refused.status, refused.body.error]).toEqual([
      429,
      { code: RpcErrorCodes.rateLimited, message: RpcMessages.tooManyWrongKeys },
    ]);
    reportFigures('a valid JWT is served after its address’s failures', {
      wrongKeysFromAddress: 60,
      validTokensServed: 2,
      forgedTokenRefused: 1,
    });
  });
});

describe('an account’s WebSocket connections and subscriptions, whatever its keys', () => {
  const server = serverFor(pglite, {
    RPC_UPSTREAMS: UPSTREAMS,
    RPC_WS_MAX_CONNECTIONS_PER_KEY: '2',
    RPC_WS_MAX_CONNECTIONS_PER_ACCOUNT: '3',
    RPC_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: '3',
  });

  it('refuses the connection past RPC_WS_MAX_CONNECTIONS_PER_ACCOUNT across three keys with 4429, and the subscription past its account’s bound', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const keys = [holder.url(NETWORK), await anotherKey(holder, server().url), await anotherKey(holder, server().url)];
    const open = (url: string) => WsClient.open(wsUrlOf(url));
    const first = await open(keys[0] as string);
    const second = await open(keys[0] as string);
    const third = await open(keys[1] as string);
    const refused = await (await open(keys[2] as string)).closing();
    expect(refused).toEqual({ code: 4429, reason: RpcMessages.tooManyAccountConnections(3) });
    const subscribed = [];
    for (const client of [first, second, third])
      subscribed.push((await client.call('eth_subscribe', ['newHeads'])).result);
    expect(subscribed.every((id) => typeof id === 'string')).toBe(true);
    expect((await first.call('eth_subscribe', ['newHeads'])).error).toEqual({
      code: RpcErrorCodes.limitExceeded,
      message: RpcMessages.tooManyAccountSubscriptions(3),
    });
    // A closed connection gives its place and its subscription back to the account.
    third.socket.close();
    const next = await until('the account has room again', async () => {
      const client = await open(keys[2] as string);
      const answered = await Promise.race([client.call('eth_chainId'), client.closing().then(() => null)]);
      return answered ? client : undefined;
    });
    expect((await next.call('eth_subscribe', ['newHeads'])).result).toBeTypeOf('string');
    next.socket.close();
    first.socket.close();
    second.socket.close();
    reportFigures('WebSocket bounds per account', { keys: 3, connectionsAllowed: 3, subscriptionsAllowed: 3 });
  });
});

describe('HTTP and WebSocket run one pipeline', () => {
  const server = serverFor(pglite, { RPC_UPSTREAMS: UPSTREAMS, USAGE_FLUSH_SECONDS: '60' });
  const calls = [
    { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
    { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['0x0000000000000000000000000000000000000001', '0x0'] },
    { jsonrpc: '2.0', id: 3, method: 'eth_accounts', params: [] },
    { jsonrpc: '2.0', id: 4, method: 'anvil_mine', params: [] },
    { jsonrpc: '2.0', id: 5, method: 'eth_getFilterChanges', params: ['0x1'] },
    { jsonrpc: '2.0', id: 6, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x0' }] },
  ];

  it('gives the same answers, metering and per-method figures for the same calls', async () => {
    const overHttp = await accountWithKey(server().url, server().db);
    const overWs = await accountWithKey(server().url, server().db);
    const socket = await WsClient.open(wsUrlOf(overWs.url(NETWORK)));
    const answers: Array<[unknown, unknown]> = [];
    for (const call of calls) {
      answers.push([(await rpcCall(overHttp.url(NETWORK), call)).body, await socket.send(call, call.id)]);
    }
    const batchHttp = (await rpcCall(overHttp.url(NETWORK), calls)).body;
    const batchWs = await socket.send(calls, `batch:${calls.map((c) => c.id).join(',')}`);
    socket.socket.close();
    for (const [http, ws] of answers) expect(ws).toEqual(http);
    expect(batchWs).toEqual(batchHttp);
    await server().deps.rpc.meter.flush();
    await server().deps.rpc.insight.flush();
    const usage = async (holder: KeyHolder) => {
      const list = await holder.client.get<{ accountResourceUsage: Array<{ usage: number }> }>(
        '/api/v1.0/usage/api/billing?limit=100',
        holder.headers,
      );
      return list.body.data.accountResourceUsage.reduce((sum, row) => sum + row.usage, 0);
    };
    // eth_accounts and anvil_mine are kept back by the screen: not metered.
    expect(await usage(overHttp)).toBe(8);
    expect(await usage(overWs)).toBe(8);
    const figures = async (holder: KeyHolder) => {
      const list = await holder.client.get<{ methods: Array<{ method: string; calls: number; errors: number }> }>(
        `/api/v1.0/usage/api/methods?hours=1`,
        holder.headers,
      );
      return list.body.data.methods.map(({ method, calls, errors }) => ({ method, calls, errors }));
    };
    const httpFigures = await figures(overHttp);
    expect(httpFigures).toHaveLength(calls.length);
    expect(await figures(overWs)).toEqual(httpFigures);
  });
});
