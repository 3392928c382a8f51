import { generateKeyPairSync } from 'node:crypto';
import { type ApiKeySettings, RpcErrorCodes, RpcMessages, rpcCloseCode, rpcWebSocketUrl } from '@ebs/contract';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../app/commands.ts';
import type { Db } from '../../db/database.ts';
import { pglite, testDatabases } from '../../testing/databases.ts';
import { es256 } from '../../testing/jwt.ts';
import { accountWithKey, type KeyHolder, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { serverFor } from '../../testing/server.ts';
import { WsClient } from '../../testing/ws-client.ts';
import { nodeCall } from './anvil-nodes.ts';

const NETWORK = 'ethereum/mainnet';

const usageOf = async (db: Db, accountId: string) => {
  const rows = await db
    .selectFrom('account_resource_usage')
    .select(sql<string>`sum(usage)::text`.as('usage'))
    .where('account_id', '=', accountId)
    .where('resource_name', '=', 'RPC_API_ETHEREUM_MAINNET')
    .execute();
  return Number(rows[0]?.usage ?? 0);
};

describe.each(testDatabases)('the WebSocket endpoint on $name', (database) => {
  const server = serverFor(database, {
    RPC_WS_MAX_CONNECTIONS_PER_KEY: '3',
    RPC_WS_MAX_SUBSCRIPTIONS_PER_KEY: '3',
    RPC_MAX_BATCH: '5',
    USAGE_FLUSH_SECONDS: '60',
  });
  const clients: WsClient[] = [];
  const open = async (url: string, headers?: Record<string, string>) => {
    const client = await WsClient.open(url, headers);
    clients.push(client);
    return client;
  };
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  const wsUrl = (holder: KeyHolder, path = NETWORK) => rpcWebSocketUrl(server().url, path, holder.keyId, holder.key);

  it('closes a connection without a usable key, or to an unknown network, with the HTTP status and the message', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const base = server().url.replace(/^http/, 'ws');
    const cases: Array<[string, number, string]> = [
      [`${base}/api/v1.0/rpc/${NETWORK}/ws`, 401, RpcMessages.missingKey],
      [rpcWebSocketUrl(server().url, NETWORK, holder.keyId, 'wrong'), 401, RpcMessages.wrongKey],
      [wsUrl(holder, 'nowhere/mainnet'), 404, RpcMessages.unknownNetwork('nowhere/mainnet/ws')],
    ];
    for (const [url, status, message] of cases) {
      const client = await open(url);
      expect(await client.closing()).toEqual({ code: rpcCloseCode(status), reason: message.slice(0, 123) });
    }
    // The key in headers, as over HTTP.
    const headed = await open(`${base}/api/v1.0/rpc/${NETWORK}/ws`, {
      'x-api-key-id': holder.keyId,
      'x-api-key': holder.key,
    });
    expect(await headed.call('eth_chainId')).toMatchObject({ result: '0x1' });
  });

  it('answers calls and batches as HTTP does, refusals included, and meters them', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const client = await open(wsUrl(holder));
    expect(await client.call('eth_chainId', [], 'a')).toEqual({ jsonrpc: '2.0', id: 'a', result: '0x1' });
    const batch = (await client.send(
      [
        { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 8, method: 'eth_sign', params: [] },
      ],
      'batch:7,8',
    )) as Array<{ id: number; result?: unknown; error?: { code: number } }>;
    expect(batch.find((a) => a.id === 7)?.result).toBe('0x1');
    expect(batch.find((a) => a.id === 8)?.error?.code).toBe(RpcErrorCodes.methodNotAvailable);
    expect(await client.send('{oops', null)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: RpcErrorCodes.parseError, message: RpcMessages.notJson },
    });
    // The connection stays open after a refusal.
    expect(await client.call('net_version', [], 9)).toMatchObject({ id: 9, result: '1' });
    await server().deps.rpc.meter.flush();
    // eth_chainId twice, net_version: the refused calls are not metered.
    expect(await usageOf(server().db, holder.accountId)).toBe(3);
  });

  it('fans one upstream subscription out to every client, each id its connection’s own, and meters each notification', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const hub = server().deps.rpc.subscriptions(NETWORK);
    const [first, second] = [await open(wsUrl(holder)), await open(wsUrl(holder))];
    const a = (await first.call('eth_subscribe', ['newHeads'])).result as string;
    const b = (await second.call('eth_subscribe', ['newHeads'])).result as string;
    // The same filter again on the same connection: a subscription of its own.
    const c = (await first.call('eth_subscribe', ['newHeads'])).result as string;
    for (const id of [a, b, c]) expect(id).toMatch(/^0x[0-9a-f]{32}$/);
    expect(c).not.toBe(a);
    expect(hub?.upstreamSubscriptions).toBe(1);
    // What the operator sees.
    const { text, json } = await runCommand(server().db, ['rpc', 'subscriptions'], {}, server().deps.rpc);
    expect(json).toEqual([
      { network: NETWORK, upstreamConnected: true, upstreamSubscriptions: 1, clientSubscriptions: 3 },
    ]);
    expect(text).toBe(`${NETWORK}  node socket open, 1 upstream subscriptions for 3 client subscriptions`);
    const node = (await server().deps.rpc.localNodeUrl(NETWORK)) as string;
    await nodeCall(node, 'evm_mine');
    const [headA] = await first.notified(a, 1);
    const [headC] = await first.notified(c, 1);
    const [headB] = await second.notified(b, 1);
    expect(headA).toEqual(headB);
    expect(headC).toEqual(headB);
    expect(headA?.hash).toBe(
      ((await nodeCall(node, 'eth_getBlockByNumber', ['latest', false])) as { hash: string }).hash,
    );

    expect(await first.call('eth_unsubscribe', [a])).toMatchObject({ result: true });
    expect(await first.call('eth_unsubscribe', [a])).toMatchObject({ result: false });
    expect(await first.call('eth_unsubscribe', [c])).toMatchObject({ result: true });
    // Another connection's subscription is not this one's to end, whatever its id.
    expect(await first.call('eth_unsubscribe', [b])).toMatchObject({ result: false });
    expect(hub?.upstreamSubscriptions).toBe(1);
    await nodeCall(node, 'evm_mine');
    await second.notified(b, 2);
    expect(first.notifications).toHaveLength(2);
    second.close();
    await until('the last client gone ends the upstream subscription', async () => hub?.upstreamSubscriptions === 0);

    await server().deps.rpc.meter.flush();
    // Three subscribes, four unsubscribes, four notifications.
    expect(await usageOf(server().db, holder.accountId)).toBe(11);
  });

  it('refuses a subscription of a kind it does not serve, with what it takes', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const client = await open(wsUrl(holder));
    for (const params of [['syncing'], ['logs', { address: 'nope' }], ['logs', { fromBlock: '0x1' }], []]) {
      expect(await client.call('eth_subscribe', params)).toMatchObject({
        error: { code: RpcErrorCodes.invalidParams, message: RpcMessages.subscriptionKinds },
      });
    }
  });

  it('limits connections and subscriptions per key', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const held = [await open(wsUrl(holder)), await open(wsUrl(holder)), await open(wsUrl(holder))];
    const fourth = await open(wsUrl(holder));
    expect(await fourth.closing()).toEqual({ code: 4429, reason: RpcMessages.tooManyConnections(3) });
    const [client] = held as [WsClient];
    for (let i = 0; i < 3; i++) expect((await client.call('eth_subscribe', ['newHeads'])).result).toBeTypeOf('string');
    expect(await client.call('eth_subscribe', ['newPendingTransactions'])).toMatchObject({
      error: { code: RpcErrorCodes.limitExceeded, message: RpcMessages.tooManySubscriptions(3) },
    });
    // Closing a connection gives its subscriptions and its place back.
    client.close();
    await until('the connection is gone', async () => server().deps.rpc && client.closed !== null);
    const again = await open(wsUrl(holder));
    expect((await again.call('eth_subscribe', ['newHeads'])).result).toBeTypeOf('string');
  });

  it('takes a JWT in the token query (browsers set no headers on a WebSocket), and the key’s origin rule', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = ec.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const saved = await holder.client.post<ApiKeySettings>(
      `/api/v1.0/key/${holder.keyId}/settings`,
      { jwtPublicKeys: [{ pem }], jwtRequired: true, allowedOrigins: ['https://app.example.com'] },
      holder.headers,
    );
    expect(saved.status).toBe(200);
    const kid = saved.body.data.jwtPublicKeys[0]?.id ?? '';
    const token = es256(kid, Math.floor(Date.now() / 1000) + 600, ec.privateKey);
    const keyIdOnly = `${server().url.replace(/^http/, 'ws')}/api/v1.0/rpc/${NETWORK}/ws?x-api-key-id=${holder.keyId}`;
    const origin = { origin: 'https://app.example.com' };
    // The gateway re-reads a changed key within a quarter of a second: HTTP says when.
    const chainId = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };
    await until('the key’s new rules are read', async () => {
      const answer = await rpcCall(holder.url(NETWORK), chainId, { 'content-type': 'application/json', ...origin });
      return answer.body.error?.message === RpcMessages.jwtMissing;
    });
    const missing = await (await open(wsUrl(holder), origin)).closing();
    expect(missing).toEqual({ code: 4401, reason: RpcMessages.jwtMissing });
    const browser = await open(`${keyIdOnly}&token=${token}`, origin);
    expect(await browser.call('eth_chainId')).toMatchObject({ result: '0x1' });
    const backend = await open(keyIdOnly, { ...origin, authorization: `Bearer ${token}` });
    expect(await backend.call('eth_chainId')).toMatchObject({ result: '0x1' });
    const elsewhere = await open(`${keyIdOnly}&token=${token}`, { origin: 'https://evil.example' });
    expect(await elsewhere.closing()).toEqual({
      code: 4403,
      reason: RpcMessages.originNotAllowed('https://evil.example'),
    });
  });

  it('holds a logs subscription to the key’s contracts, as eth_getLogs', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const allowed = '0x00000000000000000000000000000000000000aa';
    const other = '0x00000000000000000000000000000000000000bb';
    const saved = await holder.client.post(
      `/api/v1.0/key/${holder.keyId}/settings`,
      { allowedContracts: [allowed] },
      holder.headers,
    );
    expect(saved.status).toBe(200);
    const getLogs = { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ address: other }] };
    await until('the key’s new rules are read', async () => {
      const answer = await rpcCall(holder.url(NETWORK), getLogs);
      return answer.body.error?.message === RpcMessages.contractNotAllowed(other);
    });
    const client = await open(wsUrl(holder));
    const cases: Array<[unknown[], string]> = [
      [['logs'], RpcMessages.contractMissing('eth_subscribe')],
      [['logs', { topics: [] }], RpcMessages.contractMissing('eth_subscribe')],
      [['logs', { address: [allowed, other] }], RpcMessages.contractNotAllowed(other)],
    ];
    for (const [params, message] of cases) {
      expect(await client.call('eth_subscribe', params)).toMatchObject({
        error: { code: RpcErrorCodes.forbidden, message },
      });
    }
    expect((await client.call('eth_subscribe', ['logs', { address: allowed }])).result).toBeTypeOf('string');
    expect((await client.call('eth_subscribe', ['newHeads'])).result).toBeTypeOf('string');
  });

  it('closes the connections of a key that is deactivated', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const client = await open(wsUrl(holder));
    await client.call('eth_subscribe', ['newHeads']);
    const deactivated = await holder.client.post(`/api/v1.0/key/${holder.keyId}/deactivate`, {}, holder.headers);
    expect(deactivated.status).toBe(200);
    expect(await client.closing()).toEqual({ code: 4403, reason: RpcMessages.inactiveKey });
    const refused = await open(wsUrl(holder));
    expect(await refused.closing()).toEqual({ code: 4403, reason: RpcMessages.inactiveKey });
  });
});

describe('idle WebSocket connections', () => {
  const server = serverFor(pglite, { RPC_WS_PING_SECONDS: '1' });

  it('pings every connection and closes one that does not answer, not one that does', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = rpcWebSocketUrl(server().url, NETWORK, holder.keyId, holder.key);
    const answering = await WsClient.open(url);
    const silent = await WsClient.open(url, {}, { autoPong: false });
    // Closed without a close frame: the server ends the connection (1006 on the client's side).
    expect((await silent.closing()).code).toBe(1006);
    expect(answering.closed).toBeNull();
    expect(await answering.call('eth_chainId')).toMatchObject({ result: '0x1' });
    answering.close();
  });
});
