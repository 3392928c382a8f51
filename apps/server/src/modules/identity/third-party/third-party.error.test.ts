import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../testing/client.ts';
import { testDatabases } from '../../../testing/databases.ts';
import { logSink } from '../../../testing/log-sink.ts';
import {
  Jar,
  signInThroughProvider,
  startOpenIdProvider,
  type TestOpenIdProvider,
} from '../../../testing/openid-provider.ts';
import { productionEnv } from '../../../testing/production-env.ts';
import { serverFor } from '../../../testing/server.ts';

const PUBLIC_URL = 'http://console.test';

/** An address where nothing listens: an issuer that is down. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

// The first slot has a real provider; the second names an issuer that is down.
const env: Record<string, string> = { PUBLIC_URL, LOG_LEVEL: 'trace' };
let provider: TestOpenIdProvider;

beforeAll(async () => {
  provider = await startOpenIdProvider({ redirectUris: [`${PUBLIC_URL}/auth/third-party/first/callback`] });
  Object.assign(env, {
    OIDC_FIRST_ISSUER: provider.issuer,
    OIDC_FIRST_CLIENT_ID: provider.clientId,
    OIDC_FIRST_CLIENT_SECRET: provider.clientSecret,
    OIDC_SECOND_ISSUER: `http://127.0.0.1:${await closedPort()}`,
    OIDC_SECOND_CLIENT_ID: 'unused',
    OIDC_SECOND_CLIENT_SECRET: 'second-secret-never-logged',
  });
});

afterAll(async () => {
  await provider?.close();
});

const backToLogin = (response: Response | undefined) => response?.headers.get('location');

describe.each(testDatabases)('third-party sign-in refusals on $name', (database) => {
  const { lines, stream } = logSink();
  const server = serverFor(database, env, stream);

  const trip = (login: string, options: { consent?: 'accept' | 'abort'; callback?: boolean } = {}) =>
    signInThroughProvider(server().url, PUBLIC_URL, 'first', login, options);

  const userCount = async (email: string) =>
    (await server().db.selectFrom('users').select('id').where('email', '=', email).execute()).length;

  it('refuses an e-mail the provider has not verified, and creates no user', async () => {
    const email = uniqueEmail();
    provider.accounts.set(email, { email, email_verified: false, name: 'Not Verified' });
    const result = await trip(email);
    expect(backToLogin(result.callback)).toBe('/login?error=email_not_verified');
    expect(result.consoleJar.get('ebs_refresh')).toBeUndefined();
    expect(await userCount(email)).toBe(0);
  });

  it('refuses a provider account without any e-mail', async () => {
    const login = `no-mail-${Date.now()}`;
    provider.accounts.set(login, { name: 'No Mail' });
    expect(backToLogin((await trip(login)).callback)).toBe('/login?error=email_not_verified');
  });

  it('comes back to /login when the user cancels at the provider', async () => {
    const email = uniqueEmail();
    const result = await trip(email, { consent: 'abort' });
    expect(backToLogin(result.callback)).toBe('/login?error=access_denied');
    expect(await userCount(email)).toBe(0);
  });

  it('refuses a callback whose state was changed', async () => {
    const result = await trip(uniqueEmail(), { callback: false });
    const tampered = new URL(result.callbackUrl ?? '');
    tampered.searchParams.set('state', 'forged-state-value-000000000000');
    const answer = await fetch(tampered, { redirect: 'manual', headers: { cookie: result.consoleJar.header() } });
    expect(backToLogin(answer)).toBe('/login?error=invalid_state');
    expect(answer.headers.getSetCookie().some((c) => c.startsWith('ebs_refresh='))).toBe(false);
  });

  it('refuses a callback in a browser that did not start the sign-in (no flow cookie)', async () => {
    const email = uniqueEmail();
    const result = await trip(email, { callback: false });
    const answer = await fetch(result.callbackUrl ?? '', { redirect: 'manual' });
    expect(backToLogin(answer)).toBe('/login?error=invalid_state');
    expect(await userCount(email)).toBe(0);
  });

  it('refuses a replayed callback: a sign-in under way finishes once', async () => {
    const result = await trip(uniqueEmail(), { callback: false });
    const cookie = result.consoleJar.header();
    const once = await fetch(result.callbackUrl ?? '', { redirect: 'manual', headers: { cookie } });
    expect(backToLogin(once)).toBe('/third-party-sign-in');
    const again = await fetch(result.callbackUrl ?? '', { redirect: 'manual', headers: { cookie } });
    expect(backToLogin(again)).toBe('/login?error=invalid_state');
    expect(again.headers.getSetCookie().some((c) => c.startsWith('ebs_refresh='))).toBe(false);
  });

  it('refuses a sign-in that was left under way past its ten minutes', async () => {
    const result = await trip(uniqueEmail(), { callback: false });
    await server()
      .db.updateTable('third_party_sign_ins')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .execute();
    const answer = await fetch(result.callbackUrl ?? '', {
      redirect: 'manual',
      headers: { cookie: result.consoleJar.header() },
    });
    expect(backToLogin(answer)).toBe('/login?error=invalid_state');
  });

  it('refuses a code the provider did not issue for this sign-in', async () => {
    const result = await trip(uniqueEmail(), { callback: false });
    const forged = new URL(result.callbackUrl ?? '');
    forged.searchParams.set('code', 'not-a-code-the-provider-issued');
    const answer = await fetch(forged, { redirect: 'manual', headers: { cookie: result.consoleJar.header() } });
    expect(backToLogin(answer)).toBe('/login?error=failed');
  });

  it('started while the second issuer is down, and says the provider cannot be reached', async () => {
    const start = await fetch(`${server().url}/auth/third-party/second/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toBe('/login?error=provider_unavailable');
    expect(start.headers.getSetCookie()).toEqual([]);
  });

  it('answers an unknown provider slot with a validation error', async () => {
    const answer = await fetch(`${server().url}/auth/third-party/third/start`, { redirect: 'manual' });
    expect(answer.status).toBe(400);
  });

  it('never logs the client secrets, the authorization code or the session cookies', async () => {
    const result = await trip(uniqueEmail(), { callback: false });
    const code = new URL(result.callbackUrl ?? '').searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThan(10);
    const answer = await fetch(result.callbackUrl ?? '', {
      redirect: 'manual',
      headers: { cookie: result.consoleJar.header() },
    });
    const jar = new Jar();
    jar.keep(answer);
    await fetch(`${server().url}/auth/third-party/second/start`, { redirect: 'manual' });
    const log = lines.join('\n');
    expect(log).toContain('/auth/third-party/first/callback?code=[redacted]');
    for (const secret of [
      provider.clientSecret,
      'second-secret-never-logged',
      code,
      jar.get('ebs_refresh') ?? 'missing',
      result.consoleJar.get('ebs_third_party') ?? 'missing',
    ]) {
      expect(log).not.toContain(secret);
    }
    expect(log).toContain('"reason":"provider_unavailable"');
  });
});

describe.each(testDatabases)('third-party sign-in not configured, in prod, on $name', (database) => {
  // In prod the second slot is not offered even when configured; the first has no settings at all.
  const server = serverFor(
    database,
    productionEnv({
      PUBLIC_URL,
      OIDC_SECOND_ISSUER: 'https://issuer.example',
      OIDC_SECOND_CLIENT_ID: 'id',
      OIDC_SECOND_CLIENT_SECRET: 'secret',
    }),
  );

  it('tells the web app that the first provider is not configured and does not offer the second', async () => {
    const config = await (await fetch(`${server().url}/api/v1.0/config`)).json();
    expect(config.data.thirdPartyProviders).toEqual([{ id: 'first', name: 'Google', configured: false }]);
  });

  it('sends the browser back to /login saying the provider is not configured', async () => {
    for (const path of [
      '/auth/third-party/first/start',
      '/auth/third-party/second/start',
      '/auth/third-party/first/callback?code=x&state=y',
    ]) {
      const answer = await fetch(`${server().url}${path}`, { redirect: 'manual' });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe('/login?error=not_configured');
    }
  });
});
