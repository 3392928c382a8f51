import { describe, expect, it } from 'vitest';
import { Client } from '../testing/client.ts';
import { testDatabases } from '../testing/databases.ts';
import { accountWithKey, rpcCall } from '../testing/keys.ts';
import { logSink } from '../testing/log-sink.ts';
import { serverFor } from '../testing/server.ts';

describe('logs', () => {
  const { lines, stream: sink } = logSink();
  const server = serverFor(testDatabases[0]!, { LOG_LEVEL: 'trace' }, sink);

  it('carry no password, identity token or refresh token through a whole session', async () => {
    const c = new Client(server().url);
    const password = 'never logged 42';
    const { email } = await c.signUp(undefined, password);
    await c.post('/auth/sign-in', { email, password });
    const refreshed = await c.post<{ idToken: string }>('/auth/refresh');
    await c.call('GET', '/api/v1.0/user', { token: refreshed.body.data.idToken });
    await c.post('/auth/change-password', { oldPassword: password, newPassword: 'also secret 43' });
    await c.post('/auth/sign-out');

    expect(lines.length).toBeGreaterThan(10);
    const log = lines.join('\n');
    expect(log).toContain('"url":"/auth/sign-in"');
    for (const secret of [password, 'also secret 43', refreshed.body.data.idToken, c.idToken]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/ebs_refresh=[\w-]{20}/);
    expect(log).not.toMatch(/eyJ[\w-]{10,}\./); // no JWT of any kind
  });

  it('carry no API key, whether it came in the query or in a header', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const body = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };
    await rpcCall(holder.url('ethereum/mainnet'), body);
    await rpcCall(holder.url('ethereum/mainnet').replace('/rpc/', '/rpc/nowhere/'), body);
    await fetch(holder.url('ethereum/mainnet'), { method: 'GET' });
    // A key sent where the router answers (a mistyped path) is logged with the URL: redacted.
    await fetch(holder.url('ethereum/mainnet').replace('/rpc/', '/rpcs/'), { method: 'GET' });
    await rpcCall(`${server().url}/api/v1.0/rpc/ethereum/mainnet`, body, {
      'content-type': 'application/json',
      'x-api-key-id': holder.keyId,
      'x-api-key': holder.key,
    });
    const log = lines.join('\n');
    expect(log).toContain('x-api-key=[redacted]');
    expect(log).not.toContain(holder.key);
  });
});
