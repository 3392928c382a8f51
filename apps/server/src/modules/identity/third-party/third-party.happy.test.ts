import { IdentityErrors, Messages, readThirdPartyMfaFragment } from '@ebs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, uniqueEmail } from '../../../testing/client.ts';
import { testDatabases } from '../../../testing/databases.ts';
import {
  type ProviderTrip,
  signInThroughProvider,
  startOpenIdProvider,
  type TestOpenIdProvider,
} from '../../../testing/openid-provider.ts';
import { serverFor } from '../../../testing/server.ts';
import { codeOfStep, turnOnTwoFactor, wrongCode } from '../../../testing/two-factor.ts';
import { hashOpaqueToken } from '../tokens.ts';

const PUBLIC_URL = 'http://console.test';
const callbackOf = (slot: string) => `${PUBLIC_URL}/auth/third-party/${slot}/callback`;

// Two real providers: the first keeps e-mail and names for its userinfo endpoint (the conformance
// default), the second puts them in the ID token and offers no phone scope (as Google does).
const env: Record<string, string> = { PUBLIC_URL };
let first: TestOpenIdProvider;
let second: TestOpenIdProvider;

beforeAll(async () => {
  first = await startOpenIdProvider({ redirectUris: [callbackOf('first')] });
  second = await startOpenIdProvider({
    redirectUris: [callbackOf('second')],
    claimsInIdToken: true,
    withoutPhone: true,
  });
  Object.assign(env, {
    OIDC_FIRST_ISSUER: first.issuer,
    OIDC_FIRST_CLIENT_ID: first.clientId,
    OIDC_FIRST_CLIENT_SECRET: first.clientSecret,
    OIDC_SECOND_NAME: 'Second ID',
    OIDC_SECOND_ISSUER: second.issuer,
    OIDC_SECOND_CLIENT_ID: second.clientId,
    OIDC_SECOND_CLIENT_SECRET: second.clientSecret,
  });
});

afterAll(async () => {
  await first?.close();
  await second?.close();
});

interface SessionUser {
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
}

describe.each(testDatabases)('third-party sign-in on $name', (database) => {
  const server = serverFor(database, env);

  const signIn = (login: string, slot = 'first') => signInThroughProvider(server().url, PUBLIC_URL, slot, login);

  /** Turns the trip's refresh cookie into a session, as the web app's start-up does. */
  async function sessionOf(trip: ProviderTrip): Promise<SessionUser> {
    expect(trip.callback?.status).toBe(302);
    expect(trip.callback?.headers.get('location')).toBe('/third-party-sign-in');
    const c = new Client(server().url);
    c.cookie = `ebs_refresh=${trip.consoleJar.get('ebs_refresh')}`;
    const refreshed = await c.post<{ idToken: string; user: SessionUser }>('/auth/refresh');
    expect(refreshed.status).toBe(200);
    return refreshed.body.data.user;
  }

  const passwordSignIn = (email: string, password: string) =>
    new Client(server().url).post('/auth/sign-in', { email, password });

  it('sends the browser to the provider for a code with PKCE, state, nonce and the scopes openid email phone profile', async () => {
    const trip = await signInThroughProvider(server().url, PUBLIC_URL, 'first', uniqueEmail(), { callback: false });
    const url = new URL(trip.startLocation);
    expect(url.origin).toBe(first.issuer);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      client_id: first.clientId,
      response_type: 'code',
      scope: 'openid email phone profile',
      redirect_uri: callbackOf('first'),
      code_challenge_method: 'S256',
    });
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(params.state).toMatch(/^[\w-]{20,}$/);
    expect(params.nonce).toMatch(/^[\w-]{20,}$/);
    expect(params.nonce).not.toBe(params.state);
    expect(JSON.stringify(params)).not.toContain(first.clientSecret);
    expect(trip.consoleJar.get('ebs_third_party')).toMatch(/^[\w-]{43}$/);
  });

  it('keeps the sign-in under way in an httpOnly SameSite=Lax cookie for the third-party routes only', async () => {
    const start = await fetch(`${server().url}/auth/third-party/first/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const cookie = start.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/^ebs_third_party=[\w-]{43};/);
    expect(cookie).toContain('Max-Age=600');
    expect(cookie).toContain('Path=/auth/third-party');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(start.headers.get('cache-control')).toBe('no-store');
  });

  it('creates the user from the verified e-mail on a first sign-in, without a password, and opens a session', async () => {
    const email = uniqueEmail();
    first.accounts.set(email, { email, email_verified: true, given_name: 'Ada', family_name: 'Lovelace' });
    const trip = await signIn(email);
    const user = await sessionOf(trip);
    expect(user).toMatchObject({ email, givenName: 'Ada', familyName: 'Lovelace' });

    // The refresh cookie is set exactly as /auth/sign-in sets it.
    const refreshCookie = trip.callback?.headers.getSetCookie().find((c) => c.startsWith('ebs_refresh=')) ?? '';
    expect(refreshCookie).toMatch(/^ebs_refresh=[\w-]{43}; Max-Age=2592000; Path=\/auth; HttpOnly; SameSite=Strict$/);
    expect(trip.consoleJar.get('ebs_third_party')).toBeUndefined();

    const row = await server()
      .db.selectFrom('users')
      .select(['password_hash', 'confirmed_at'])
      .where('id', '=', user.sub)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect(row.confirmed_at).not.toBeNull();
    const identities = await server()
      .db.selectFrom('user_identities')
      .select(['issuer', 'subject', 'email'])
      .where('user_id', '=', user.sub)
      .execute();
    expect(identities).toEqual([{ issuer: first.issuer, subject: email, email }]);

    // With no password, password sign-in fails exactly as a wrong password does.
    for (const password of ['', 'any password 1']) {
      const refused = await passwordSignIn(email, password || 'x');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        message: IdentityErrors.notAuthorized.message,
        error: IdentityErrors.notAuthorized.error,
      });
    }
  });

  it('finds the same user by issuer and subject on a second sign-in, even after the e-mail changed at the provider', async () => {
    const login = `person-${Date.now()}`;
    const email = uniqueEmail();
    first.accounts.set(login, { email, email_verified: true, name: 'Grace Brewster Hopper' });
    const once = await sessionOf(await signIn(login));
    expect(once).toMatchObject({ email, givenName: 'Grace', familyName: 'Brewster Hopper' });

    const newEmail = uniqueEmail();
    first.accounts.set(login, { email: newEmail, email_verified: true, name: 'Grace Hopper' });
    const twice = await sessionOf(await signIn(login));
    expect(twice.sub).toBe(once.sub);
    expect(twice.email).toBe(email);
    const identities = await server()
      .db.selectFrom('user_identities')
      .select('email')
      .where('user_id', '=', once.sub)
      .execute();
    expect(identities).toEqual([{ email: newEmail }]);
    const sessions = await server().db.selectFrom('sessions').select('id').where('user_id', '=', once.sub).execute();
    expect(sessions).toHaveLength(2);
  });

  it('links an existing password user with the same verified e-mail, whose password still works', async () => {
    const c = new Client(server().url);
    const { email, password, userId } = await c.signUp();
    const user = await sessionOf(await signIn(email));
    expect(user.sub).toBe(userId);
    expect(user).toMatchObject({ givenName: 'Test', familyName: 'User' });
    expect((await passwordSignIn(email, password)).status).toBe(200);
    expect((await sessionOf(await signIn(email))).sub).toBe(userId);
  });

  it('lets a password reset give a third-party user a password', async () => {
    const email = uniqueEmail();
    const user = await sessionOf(await signIn(email));
    const c = new Client(server().url);
    expect((await c.post('/auth/forgot-password', { email })).status).toBe(200);
    const reset = await c.post('/auth/confirm-forgot-password', {
      email,
      code: await c.mailedCode(email),
      newPassword: 'now with password 9',
    });
    expect(reset.status).toBe(200);
    const signedIn = await passwordSignIn(email, 'now with password 9');
    expect(signedIn.status).toBe(200);
    expect((signedIn.body.data as { user: SessionUser }).user.sub).toBe(user.sub);
  });

  it('takes over an unconfirmed sign-up of the same e-mail: its password and names stop counting', async () => {
    const email = uniqueEmail();
    const c = new Client(server().url);
    const signUp = await c.post<{ userSub: string }>('/auth/sign-up', {
      email,
      password: 'someone else 1',
      givenName: 'Not',
      familyName: 'Them',
    });
    expect(signUp.status).toBe(200);
    first.accounts.set(email, { email, email_verified: true, given_name: 'Real', family_name: 'Owner' });
    const user = await sessionOf(await signIn(email));
    expect(user).toMatchObject({ sub: signUp.body.data.userSub, givenName: 'Real', familyName: 'Owner' });
    const refused = await passwordSignIn(email, 'someone else 1');
    expect(refused.body.error).toBe(IdentityErrors.notAuthorized.error);
  });

  it('asks a user with two-factor sign-in on for the code: no cookie, the challenge in the fragment, the code signs in', async () => {
    const owner = new Client(server().url);
    const { email, userId } = await owner.signUp();
    const { secret } = await turnOnTwoFactor(owner);
    const sessionCount = async () =>
      (await server().db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;
    const sessionsBefore = await sessionCount();

    const trip = await signIn(email);
    expect(trip.callback?.status).toBe(302);
    expect(trip.callback?.headers.getSetCookie().some((c) => c.startsWith('ebs_refresh='))).toBe(false);
    expect(trip.consoleJar.get('ebs_refresh')).toBeUndefined();
    expect(trip.consoleJar.get('ebs_third_party')).toBeUndefined();
    const location = trip.callback?.headers.get('location') ?? '';
    expect(location).toMatch(/^\/login#mfa=[\w-]{43}&expiresIn=300&email=u\*\*\*%40e\*\*\*\.com$/);
    expect(decodeURIComponent(location)).not.toContain(email.split('@')[0]);
    const step = readThirdPartyMfaFragment(new URL(location, PUBLIC_URL).hash);
    expect(step).toEqual({ session: expect.any(String), expiresIn: 300, email: 'u***@e***.com' });
    expect(await sessionCount()).toBe(sessionsBefore);
    // The very challenge a password sign-in makes: kept as a hash, answered by POST /auth/sign-in/mfa.
    const stored = await server().db.selectFrom('sign_in_challenges').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).toContain(hashOpaqueToken(step?.session ?? ''));

    const browser = new Client(server().url);
    const wrong = await browser.post('/auth/sign-in/mfa', { session: step?.session, code: wrongCode(secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(Messages.mfaCodeMismatch);
    expect(browser.cookie).toBe('');
    const { last_used_step } = await server()
      .db.selectFrom('two_factor_secrets')
      .select('last_used_step')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const finish = await browser.post<{ idToken: string; user: SessionUser }>('/auth/sign-in/mfa', {
      session: step?.session,
      code: codeOfStep(secret, Number(last_used_step) + 1),
    });
    expect(finish.status).toBe(200);
    expect(finish.body.data.user).toMatchObject({ sub: userId, email });
    expect(browser.cookie).toMatch(/^ebs_refresh=[\w-]{43}$/);
    expect(await sessionCount()).toBe(sessionsBefore + 1);
    expect((await browser.post('/auth/refresh')).status).toBe(200);
  });

  it('keeps signing in at once a user without two-factor sign-in, and one who turned it off', async () => {
    const owner = new Client(server().url);
    const { email, userId } = await owner.signUp();
    const { secret } = await turnOnTwoFactor(owner);
    const { last_used_step } = await server()
      .db.selectFrom('two_factor_secrets')
      .select('last_used_step')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const off = await owner.post('/auth/mfa/disable', { code: codeOfStep(secret, Number(last_used_step) + 1) });
    expect(off.status).toBe(200);
    expect((await sessionOf(await signIn(email))).sub).toBe(userId);
  });

  it('signs in with the second provider, which offers no phone scope and whose ID token carries the e-mail and names', async () => {
    const email = uniqueEmail();
    second.accounts.set(email, { email, email_verified: true, given_name: 'Id', family_name: 'Token' });
    const trip = await signIn(email, 'second');
    expect(new URL(trip.startLocation).searchParams.get('scope')).toBe('openid email profile');
    const user = await sessionOf(trip);
    expect(user).toMatchObject({ email, givenName: 'Id', familyName: 'Token' });
    const identity = await server()
      .db.selectFrom('user_identities')
      .select('issuer')
      .where('user_id', '=', user.sub)
      .executeTakeFirstOrThrow();
    expect(identity.issuer).toBe(second.issuer);
  });

  it('tells the web app which providers are configured, by name, and no secret', async () => {
    const response = await fetch(`${server().url}/api/v1.0/config`);
    const text = await response.text();
    expect(JSON.parse(text).data.thirdPartyProviders).toEqual([
      { id: 'first', name: 'Google', configured: true },
      { id: 'second', name: 'Second ID', configured: true },
    ]);
    expect(text).not.toContain(first.clientSecret);
    expect(text).not.toContain(first.clientId);
  });
});
