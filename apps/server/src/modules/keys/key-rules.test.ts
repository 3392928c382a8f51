import { generateKeyPairSync } from 'node:crypto';
import {
  type ApiKeySettings,
  KeyRuleMessages,
  Messages,
  MULTICALL3_ADDRESS,
  type RolledApiKey,
  RpcErrorCodes,
  RpcMessages,
} from '@ebs/contract';
import { sql } from 'kysely';
import { encodeFunctionData, erc20Abi, type Hex, multicall3Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { FIXED_RESULT, startFixedUpstream } from '../../testing/fixed-upstream.ts';
import { es256 } from '../../testing/jwt.ts';
import { accountWithKey, type KeyHolder, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { serverFor } from '../../testing/server.ts';

const NETWORK = 'polygon/mainnet';
const TOKEN = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';
const call = (method: string, id: number, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });

describe.each(testDatabases)('keys locked down by their own rules, on $name', (database) => {
  let upstream: Awaited<ReturnType<typeof startFixedUpstream>>;
  // Filled in before the server starts (hooks run in order).
  const env: Record<string, string> = {
    TRUST_PROXY: '1',
    RPC_RATE_LIMIT_PER_SECOND: '1000',
    USAGE_FLUSH_SECONDS: '60',
  };
  beforeAll(async () => {
    upstream = await startFixedUpstream(NETWORK);
    env.RPC_UPSTREAMS = JSON.stringify({ [NETWORK]: [upstream.url] });
  });
  afterAll(() => upstream?.close());
  const server = serverFor(database, env);

  const settingsOf = async (holder: KeyHolder) =>
    holder.client.get<ApiKeySettings>(`/api/v1.0/key/${holder.keyId}/settings`, holder.headers);
  async function configure(holder: KeyHolder, body: Record<string, unknown>) {
    const answer = await holder.client.post<ApiKeySettings>(
      `/api/v1.0/key/${holder.keyId}/settings`,
      body,
      holder.headers,
    );
    expect({ status: answer.status, message: answer.body.message }).toEqual({
      status: 200,
      message: Messages.apiKeySettingsSaved,
    });
    return answer.body.data;
  }
  /** The gateway re-reads a changed key within its refresh interval: wait until it answers as expected. */
  const send = (holder: KeyHolder, body: unknown, headers: Record<string, string> = {}) =>
    rpcCall(holder.url(NETWORK), body, { 'content-type': 'application/json', ...headers });
  const untilAnswer = (what: string, answer: () => ReturnType<typeof send>, status: number, message?: string) =>
    until(
      what,
      async () => {
        const a = await answer();
        return a.status === status && (message === undefined || a.body.error?.message === message) && a;
      },
      5000,
    );

  it('reads and changes a key’s settings; each wrong entry is refused by name and nothing changes', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const initial = await settingsOf(holder);
    expect(initial.body.data).toEqual({
      allowedOrigins: [],
      allowedIps: [],
      allowedMethods: [],
      allowedContracts: [],
      requestsPerSecond: null,
      requestsPerDay: null,
      computeUnitsPerSecond: null,
      computeUnitsPerDay: null,
      jwtRequired: false,
      jwtPublicKeys: [],
      expiresAt: null,
    });
    const saved = await configure(holder, {
      allowedOrigins: ['https://App.Example.com/', 'https://*.example.org', 'https://app.example.com'],
      allowedIps: ['203.0.113.7/32', '2001:DB8::/32'],
      allowedMethods: ['eth_call', 'net_*'],
      allowedContracts: [TOKEN.toUpperCase().replace('0X', '0x')],
      requestsPerSecond: 50,
    });
    expect(saved).toMatchObject({
      allowedOrigins: ['https://app.example.com', 'https://*.example.org'],
      allowedIps: ['203.0.113.7', '2001:db8::/32'],
      allowedMethods: ['eth_call', 'net_*'],
      allowedContracts: [TOKEN],
      requestsPerSecond: 50,
      requestsPerDay: null,
    });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ allowedOrigins: ['https://app.example.com/swap'] }, KeyRuleMessages.origin('https://app.example.com/swap')],
      [{ allowedOrigins: ['https://*.com'] }, KeyRuleMessages.origin('https://*.com')],
      [{ allowedIps: ['10.0.0.0/33'] }, KeyRuleMessages.ip('10.0.0.0/33')],
      [{ allowedIps: ['10.0.0.256'] }, KeyRuleMessages.ip('10.0.0.256')],
      [{ allowedMethods: ['eth call'] }, KeyRuleMessages.method('eth call')],
      [{ allowedContracts: ['0x1234'] }, KeyRuleMessages.contract('0x1234')],
      [
        { allowedContracts: Array.from({ length: 101 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`) },
        KeyRuleMessages.tooMany('allowed contract addresses'),
      ],
      [{ requestsPerSecond: 1001 }, KeyRuleMessages.limitAboveCeiling('Requests per second', 1000)],
      [{ expiresAt: '2020-01-01T00:00:00Z' }, KeyRuleMessages.expiryInPast],
      [{ jwtRequired: true }, KeyRuleMessages.jwtWithoutKeys],
      [
        { jwtPublicKeys: [{ pem: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }] },
        KeyRuleMessages.pemPrivate(1),
      ],
      // A good list beside a wrong one: all or nothing.
      [{ allowedMethods: ['eth_chainId'], allowedIps: ['nope'] }, KeyRuleMessages.ip('nope')],
    ];
    for (const [body, message] of refusals) {
      const answer = await holder.client.post(`/api/v1.0/key/${holder.keyId}/settings`, body, holder.headers);
      expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 400, message });
    }
    // The schema refuses what is not a settings body.
    const unknownField = await holder.client.post(
      `/api/v1.0/key/${holder.keyId}/settings`,
      { allowedUsers: [] },
      holder.headers,
    );
    expect(unknownField.status).toBe(400);
    expect((await settingsOf(holder)).body.data).toEqual(saved);

    // Another account's member cannot read or change it: the key reads as unknown there.
    const stranger = await accountWithKey(server().url, server().db);
    const theirs = await stranger.client.get(`/api/v1.0/key/${holder.keyId}/settings`, stranger.headers);
    expect({ status: theirs.status, message: theirs.body.message }).toEqual({
      status: 404,
      message: Messages.apiKeyNotFound,
    });
    const change = await stranger.client.post(
      `/api/v1.0/key/${holder.keyId}/settings`,
      { allowedOrigins: [] },
      stranger.headers,
    );
    expect(change.status).toBe(404);
    expect((await settingsOf(holder)).body.data).toEqual(saved);
  });

  it('refuses another origin or client address with HTTP 403 and says which, and serves the allowed ones', async () => {
    const holder = await accountWithKey(server().url, server().db);
    await configure(holder, { allowedOrigins: ['https://app.example.com', 'https://*.example.org'] });
    const chainId = call('eth_chainId', 3);
    const evil = await untilAnswer('origin rule', () => send(holder, chainId, { origin: 'https://evil.example' }), 403);
    expect(evil.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: RpcErrorCodes.forbidden, message: 'origin https://evil.example is not allowed for this key' },
    });
    expect((await send(holder, chainId)).body.error?.message).toBe(RpcMessages.originMissing);
    const allowed: Array<Record<string, string>> = [
      { origin: 'https://app.example.com' },
      { origin: 'https://shop.example.org' },
      { referer: 'https://app.example.com/swap?from=eth' },
    ];
    for (const headers of allowed) {
      expect(await send(holder, chainId, headers)).toMatchObject({
        status: 200,
        body: { id: 3, result: FIXED_RESULT },
      });
    }

    // The client address as TRUST_PROXY=1 reads it: the last X-Forwarded-For hop.
    await configure(holder, { allowedOrigins: [], allowedIps: ['203.0.113.0/24', '2001:db8::/32'] });
    const from = (ip: string) => send(holder, chainId, { 'x-forwarded-for': ip });
    const refused = await untilAnswer(
      'address rule',
      () => from('198.51.100.4'),
      403,
      RpcMessages.ipNotAllowed('198.51.100.4'),
    );
    expect(refused.body.error).toEqual({
      code: RpcErrorCodes.forbidden,
      message: RpcMessages.ipNotAllowed('198.51.100.4'),
    });
    expect((await from('203.0.113.99')).status).toBe(200);
    expect((await from('2001:db8::1')).status).toBe(200);
  });

  it('answers each refused call of a batch with its own error, forwards and meters only the others', async () => {
    const holder = await accountWithKey(server().url, server().db);
    // eth_blockNumber, not eth_chainId: the gateway answers the chain id from its cache once known.
    await configure(holder, { allowedMethods: ['eth_blockNumber', 'eth_call'], allowedContracts: [TOKEN] });
    const batch = [
      call('eth_blockNumber', 1),
      call('debug_traceTransaction', 2, ['0x00']),
      call('eth_call', 3, [{ to: OTHER, data: '0x' }, 'latest']),
      call('eth_call', 4, [{ to: TOKEN, data: '0x' }, 'latest']),
    ];
    const answer = await until('method rule', async () => {
      const a = await send(holder, batch);
      return a.body.length === 4 && a.body.some((x) => x.error) && a;
    });
    expect(answer.status).toBe(200);
    const byId = new Map(answer.body.map((a) => [a.id, a]));
    expect(byId.get(1)).toMatchObject({ result: FIXED_RESULT });
    expect(byId.get(4)).toMatchObject({ result: FIXED_RESULT });
    expect(byId.get(2)?.error).toEqual({
      code: RpcErrorCodes.forbidden,
      message: 'method debug_traceTransaction is not allowed for this key',
    });
    expect(byId.get(3)?.error).toEqual({
      code: RpcErrorCodes.forbidden,
      message: RpcMessages.contractNotAllowed(OTHER),
    });
    // Only the two allowed calls reached the node (under the gateway's own ids, read back to the callers').
    const forwarded = JSON.parse(upstream.received.at(-1) ?? '[]') as Array<{ method: string; params: unknown[] }>;
    expect(forwarded.map((c) => [c.method, c.params])).toEqual([
      ['eth_blockNumber', []],
      ['eth_call', [{ to: TOKEN, data: '0x' }, 'latest']],
    ]);

    // A single refused call: HTTP 403.
    const single = await send(holder, call('eth_getBalance', 9, [OTHER, 'latest']));
    expect(single).toMatchObject({
      status: 403,
      body: {
        id: 9,
        error: { code: RpcErrorCodes.forbidden, message: RpcMessages.methodNotAllowed('eth_getBalance') },
      },
    });

    await server().deps.rpc.meter.flush();
    const usage = await sql<{ total: string }>`
      select coalesce(sum(usage), 0)::text as total from account_resource_usage where account_id = ${holder.accountId}
    `.execute(server().db);
    expect(Number(usage.rows[0]?.total)).toBe(2);
  });

  it("refuses a Multicall3 call whose inner target is not on the key's list", async () => {
    const holder = await accountWithKey(server().url, server().db);
    await configure(holder, { allowedContracts: [TOKEN, MULTICALL3_ADDRESS] });
    await untilAnswer(
      'contract rule',
      () => send(holder, call('eth_call', 1, [{ to: OTHER, data: '0x' }, 'latest'])),
      403,
      RpcMessages.contractNotAllowed(OTHER),
    );
    const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [OTHER] });
    const aggregate3 = (targets: Hex[]) =>
      encodeFunctionData({
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [targets.map((target) => ({ target, allowFailure: false, callData: balanceOf }))],
      });
    const sentBefore = upstream.received.length;
    const refused = aggregate3([TOKEN, OTHER]);
    const answer = await send(holder, call('eth_call', 2, [{ to: MULTICALL3_ADDRESS, data: refused }, 'latest']));
    expect(answer).toMatchObject({
      status: 403,
      body: { id: 2, error: { code: RpcErrorCodes.forbidden, message: RpcMessages.contractNotAllowed(OTHER) } },
    });
    // Under `input`, the other name a node takes calldata by, it is refused as well.
    const asInput = await send(holder, call('eth_call', 3, [{ to: MULTICALL3_ADDRESS, input: refused }, 'latest']));
    expect(asInput.body.error?.message).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(upstream.received.slice(sentBefore).some((body) => body.includes(refused.slice(10)))).toBe(false);

    // Calls to allowed contracts only: the node answers.
    const allowed = await send(
      holder,
      call('eth_call', 4, [{ to: MULTICALL3_ADDRESS, data: aggregate3([TOKEN]) }, 'latest']),
    );
    expect(allowed).toMatchObject({ status: 200, body: { id: 4, result: FIXED_RESULT } });
  });

  it('counts every call against the key’s own limits: past one, HTTP 429 saying which, with Retry-After', async () => {
    const holder = await accountWithKey(server().url, server().db);
    await configure(holder, { requestsPerSecond: 2 });
    const three = [call('eth_chainId', 1), call('eth_chainId', 2), call('eth_chainId', 3)];
    const limited = await untilAnswer('per-second limit', () => send(holder, three), 429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: RpcErrorCodes.rateLimited, message: RpcMessages.perSecondLimit(2) },
    });

    const daily = await accountWithKey(server().url, server().db);
    await configure(daily, { requestsPerDay: 3 });
    // The new limit is in force once a batch of four is refused; a batch of three then passes.
    await untilAnswer('daily limit', () => send(daily, [...three, call('eth_chainId', 4)]), 429);
    const dayAnswer = await send(daily, three);
    // The refused batch counted too (a fixed window): the day is spent.
    expect(dayAnswer.status).toBe(429);
    expect(dayAnswer.body.error?.message).toBe('daily request limit of 3 reached, resets at 00:00 UTC');
    const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    expect(Number(dayAnswer.headers.get('retry-after'))).toBeCloseTo((midnight - Date.now()) / 1000, -1);
  });

  it('requires a JWT signed by an uploaded public key once the key says so; the secret may then be left out', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = ec.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const saved = await configure(holder, { jwtPublicKeys: [{ pem }], jwtRequired: true });
    expect(saved.jwtPublicKeys).toEqual([
      { id: expect.any(String), algorithm: 'ES256', createdAt: expect.any(String) },
    ]);
    const kid = saved.jwtPublicKeys[0]?.id ?? '';
    const chainId = call('eth_chainId', 5);
    const missing = await untilAnswer('JWT required', () => send(holder, chainId), 401);
    expect(missing.body.error).toEqual({ code: RpcErrorCodes.unauthorized, message: RpcMessages.jwtMissing });

    const token = es256(kid, Math.floor(Date.now() / 1000) + 600, ec.privateKey);
    const keyIdOnly = `${server().url}/api/v1.0/rpc/${NETWORK}?x-api-key-id=${holder.keyId}`;
    const signed = await rpcCall(keyIdOnly, chainId, {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    });
    expect(signed).toMatchObject({ status: 200, body: { result: FIXED_RESULT } });
    expect((await send(holder, chainId, { authorization: `Bearer ${token}` })).status).toBe(200);
    const late = es256(kid, Math.floor(Date.now() / 1000) + 3 * 86_400, ec.privateKey);
    const tooLong = await rpcCall(keyIdOnly, chainId, {
      'content-type': 'application/json',
      authorization: `Bearer ${late}`,
    });
    expect(tooLong.body.error?.message).toBe(RpcMessages.jwtInvalid('its exp is more than 24 hours ahead'));
    // A browser may send the header: the preflight allows it.
    const preflight = await fetch(keyIdOnly, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    // Without the key id there is nothing to check the token against.
    const noId = await rpcCall(`${server().url}/api/v1.0/rpc/${NETWORK}`, chainId, {
      authorization: `Bearer ${token}`,
    });
    expect(noId.body.error?.message).toBe(RpcMessages.missingKey);
  });

  it('rolls a key: both secrets work during the overlap, only the new one after it; an expired key is refused', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const chainId = call('eth_chainId', 6);
    const roll = (overlapSeconds: number) =>
      holder.client.post<RolledApiKey>(`/api/v1.0/key/${holder.keyId}/roll`, { overlapSeconds }, holder.headers);
    const rolledAt = Date.now();
    const rolled = await roll(3600);
    expect(rolled.body.message).toBe(Messages.apiKeyRolled);
    // The answer says until when the old secret works: the stored instant, an hour on.
    const until = Date.parse(rolled.body.data.previousKeyWorksUntil ?? '');
    expect(until - rolledAt).toBeGreaterThanOrEqual(3600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(3600_000);
    const stored = await server()
      .db.selectFrom('api_keys')
      .select('previous_key_expires_at')
      .where('id', '=', holder.keyId)
      .executeTakeFirstOrThrow();
    expect(stored.previous_key_expires_at?.getTime()).toBe(until);
    const secret = rolled.body.data.key.key;
    expect(rolled.body.data.key).toEqual({ keyId: holder.keyId, key: expect.stringMatching(/^[\w-]{43}$/) });
    const withSecret = { ...holder, url: (path: string) => holder.url(path).replace(holder.key, secret) };
    await untilAnswer('new secret', () => send(withSecret, chainId), 200);
    expect((await send(holder, chainId)).status).toBe(200);
    expect((await roll(45)).status).toBe(400);

    // The overlap ends (its instant is in the past): the old secret is refused, the new one serves.
    await sql`
      update api_keys set previous_key_expires_at = now() - interval '1 second', updated_at = now()
      where id = ${holder.keyId}
    `.execute(server().db);
    const old = await untilAnswer('overlap over', () => send(holder, chainId), 401);
    expect(old.body.error?.message).toBe(RpcMessages.wrongKey);
    expect((await send(withSecret, chainId)).status).toBe(200);

    // Rolled with no overlap, the secret before is refused at once.
    const again = (await roll(0)).body.data.key.key;
    await untilAnswer('no overlap', () => send(withSecret, chainId), 401);
    const latest = { ...holder, url: (path: string) => holder.url(path).replace(holder.key, again) };
    expect((await send(latest, chainId)).status).toBe(200);

    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    expect((await configure(latest, { expiresAt })).expiresAt).toBe(expiresAt);
    await sql`update api_keys set expires_at = now() - interval '1 second', updated_at = now() where id = ${holder.keyId}`.execute(
      server().db,
    );
    const expired = await untilAnswer('expiry', () => send(latest, chainId), 403);
    expect(expired.body.error?.message).toMatch(/^this API key expired at \d{4}-\d\d-\d\dT/);
  });
});
