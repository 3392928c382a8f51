import { generateKeyPairSync } from 'node:crypto';
import { Messages } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { hashOpaqueToken, IdTokens } from './tokens.ts';

describe.each(testDatabases)('identity sessions on $name', (database) => {
  const server = serverFor(database);

  const userInfo = (c: Client, token?: string) => c.call('GET', '/api/v1.0/user', { token });

  it('signs the user in on confirmation, with the e-mail spaces removed and lower-cased', async () => {
    const c = new Client(server().url);
    const email = uniqueEmail();
    await c.post('/auth/sign-up', {
      email: ` ${email.toUpperCase()} `,
      password: 'violet tram 84',
      givenName: 'Ann',
      familyName: 'Lee',
      // The plain sign-up path's bot-check token (spec B §3).
      botCheckToken: null,
    });
    const confirmed = await c.post<{ result: string; idToken: string; user: { email: string } }>(
      '/auth/confirm-sign-up',
      { email, code: await c.mailedCode(email) },
    );
    expect(confirmed.body.data.result).toBe('SUCCESS');
    expect(confirmed.body.data.user.email).toBe(email);
    const info = await userInfo(c, confirmed.body.data.idToken);
    expect(info.body.data).toMatchObject({ email, firstName: 'Ann', lastName: 'Lee', ambassador: null });
  });

  it('keeps the refresh token in an httpOnly SameSite=Strict cookie on /auth, stored only as a hash', async () => {
    const c = new Client(server().url);
    const { email, password } = await c.signUp();
    const signIn = await c.post('/auth/sign-in', { email, password });
    const cookie = signIn.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ebs_refresh=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/auth');
    expect(JSON.stringify(signIn.body)).not.toContain(c.cookie.split('=')[1]);
    const clear = c.cookie.split('=')[1] ?? '';
    const stored = await server()
      .db.selectFrom('refresh_tokens')
      .select('token_hash')
      .where('token_hash', '=', clear)
      .execute();
    expect(stored).toHaveLength(0);
    const hashed = await server()
      .db.selectFrom('refresh_tokens')
      .select('token_hash')
      .where('token_hash', '=', hashOpaqueToken(clear))
      .execute();
    expect(hashed).toHaveLength(1);
  });

  it('stores passwords as argon2id hashes', async () => {
    const { email } = await new Client(server().url).signUp();
    const row = await server()
      .db.selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('rotates the refresh token and renews the identity token', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const before = c.cookie;
    const refreshed = await c.post<{ idToken: string }>('/auth/refresh');
    expect(refreshed.status).toBe(200);
    expect(c.cookie).not.toBe(before);
    expect((await userInfo(c, refreshed.body.data.idToken)).status).toBe(200);
  });

  it('revokes the session when a rotated refresh token is replayed later', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const stolen = c.cookie;
    await c.post('/auth/refresh');
    await sql`update refresh_tokens set used_at = now() - interval '5 minutes'
      where token_hash = ${hashOpaqueToken(stolen.split('=')[1] ?? '')}`.execute(server().db);
    const thief = new Client(server().url);
    thief.cookie = stolen;
    const replay = await thief.post('/auth/refresh');
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ message: 'Token expired', error: 'Unauthorized' });
    expect((await c.post('/auth/refresh')).status).toBe(401);
  });

  it('answers CognitoTokenExpired for an expired identity token', async () => {
    const c = new Client(server().url);
    const { userId } = await c.signUp();
    const session = await server()
      .db.selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const expired = await new IdTokens(server().deps.secrets.signingKey, server().deps.config.PUBLIC_URL, -5).sign({
      sub: userId,
      sid: session.id,
      email: 'x@example.com',
      givenName: 'x',
      familyName: 'y',
    });
    const answer = await userInfo(c, expired);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ message: Messages.cognitoTokenExpired, error: 'Unauthorized' });
  });

  it('answers Token expired for a token signed by another key', async () => {
    const c = new Client(server().url);
    const { userId } = await c.signUp();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = await new IdTokens(privateKey, server().deps.config.PUBLIC_URL, 60).sign({
      sub: userId,
      sid: userId,
      email: 'x@example.com',
      givenName: 'x',
      familyName: 'y',
    });
    expect((await userInfo(c, forged)).body).toMatchObject({ message: 'Token expired', error: 'Unauthorized' });
  });

  it('signs out: the refresh cookie is cleared and the identity token stops working', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const token = c.idToken;
    const cookie = c.cookie;
    const out = await c.post('/auth/sign-out');
    expect(out.status).toBe(200);
    expect(c.cookie).toBe('');
    expect((await userInfo(c, token)).body).toMatchObject({ message: 'Token expired', error: 'Unauthorized' });
    c.cookie = cookie;
    expect((await c.post('/auth/refresh')).status).toBe(401);
  });

  it('resets a forgotten password: the new one signs in, the old one and old sessions do not', async () => {
    const c = new Client(server().url);
    const { email, password } = await c.signUp();
    const forgot = await c.post<{ CodeDeliveryDetails: { Destination: string } }>('/auth/forgot-password', { email });
    expect(forgot.body.data.CodeDeliveryDetails.Destination).toMatch(/^u\*\*\*@e\*\*\*\.com$/);
    const code = await c.mailedCode(email);
    expect((await c.post('/auth/confirm-forgot-password', { email, code, newPassword: 'fresh secret 7' })).status).toBe(
      200,
    );
    expect((await userInfo(c)).status).toBe(401);
    expect((await new Client(server().url).post('/auth/sign-in', { email, password })).status).toBe(400);
    expect((await new Client(server().url).post('/auth/sign-in', { email, password: 'fresh secret 7' })).status).toBe(
      200,
    );
  });

  it('answers forgot-password for an unknown e-mail the same way, and mails nothing', async () => {
    const email = uniqueEmail();
    const answer = await new Client(server().url).post('/auth/forgot-password', { email });
    expect(answer.status).toBe(200);
    const mails = await (await fetch(`${server().url}/dev/mailbox.json?to=${email}`)).json();
    expect(mails).toEqual([]);
  });

  it('changes the password: the caller stays signed in, other sessions end', async () => {
    const here = new Client(server().url);
    const { email, password } = await here.signUp();
    const elsewhere = new Client(server().url);
    await elsewhere.post('/auth/sign-in', { email, password }).then((a) => {
      elsewhere.idToken = (a.body.data as { idToken: string }).idToken;
    });
    const changed = await here.post('/auth/change-password', { oldPassword: password, newPassword: 'changed pass 5' });
    expect(changed.body.data).toEqual({ result: 'SUCCESS' });
    expect((await userInfo(here)).status).toBe(200);
    expect((await userInfo(elsewhere)).status).toBe(401);
    expect((await new Client(server().url).post('/auth/sign-in', { email, password: 'changed pass 5' })).status).toBe(
      200,
    );
  });

  it('writes each mailed code once to the outbox, newest first', async () => {
    const c = new Client(server().url);
    const email = uniqueEmail();
    await c.post('/auth/sign-up', { email, password: 'violet tram 84', givenName: 'A', familyName: 'B' });
    await c.post('/auth/forgot-password', { email });
    const mails = (await (await fetch(`${server().url}/dev/mailbox.json?to=${email}`)).json()) as Array<{
      to: string;
      subject: string;
      text: string;
      createdAt: string;
    }>;
    expect(mails.map((m) => m.subject)).toEqual([
      'Reset your EBS Console password',
      'Your EBS Console verification code',
    ]);
    expect(mails[0]?.to).toBe(email);
    expect(new Date(mails[0]?.createdAt ?? '').getTime()).toBeGreaterThan(0);
  });
});

describe('identity token lifetime', () => {
  // Long enough for a loaded machine to sign up and call once inside it.
  const server = serverFor(testDatabases[0]!, { ID_TOKEN_TTL_SECONDS: '3' });

  it('expires an identity token after ID_TOKEN_TTL_SECONDS, and a refresh renews it', async () => {
    const c = new Client(server().url);
    await c.signUp();
    expect((await c.call('GET', '/api/v1.0/user')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 4100));
    const expired = await c.call('GET', '/api/v1.0/user');
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ message: 'CognitoTokenExpired', error: 'Unauthorized' });
    const refreshed = await c.post<{ idToken: string; expiresIn: number }>('/auth/refresh');
    expect(refreshed.body.data.expiresIn).toBe(3);
    expect((await c.call('GET', '/api/v1.0/user', { token: refreshed.body.data.idToken })).status).toBe(200);
  });
});
