import { Messages } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { codeOfStep, turnOnTwoFactor, wrongCode } from '../../testing/two-factor.ts';
import { hashOpaqueToken } from './tokens.ts';

interface Challenge {
  challengeName: string;
  session: string;
  expiresIn: number;
}

describe.each(testDatabases)('two-factor sign-in on $name', (database) => {
  const server = serverFor(database);

  /** A signed-up user with two-factor sign-in on, and a fresh browser that has never signed in. */
  async function userWithTwoFactor() {
    const owner = new Client(server().url);
    const { email, password, userId } = await owner.signUp();
    const { secret, recoveryCodes } = await turnOnTwoFactor(owner);
    return { email, password, userId, secret, recoveryCodes, browser: new Client(server().url) };
  }

  const lastUsedStep = async (userId: string) =>
    Number(
      (
        await server()
          .db.selectFrom('two_factor_secrets')
          .select('last_used_step')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).last_used_step,
    );
  const sessionCount = async (userId: string) =>
    (await server().db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;
  const challenge = async (browser: Client, email: string, password: string) => {
    const answer = await browser.post<Challenge>('/auth/sign-in', { email, password });
    expect(answer.status).toBe(200);
    return answer.body.data.session;
  };

  it('answers a challenge and no cookie for the password, then the code signs in as usual', async () => {
    const { email, password, userId, secret, browser } = await userWithTwoFactor();
    const sessionsBefore = await sessionCount(userId);

    const signIn = await browser.post<Challenge & { idToken?: string }>('/auth/sign-in', { email, password });
    expect(signIn.status).toBe(200);
    expect(signIn.body.data).toEqual({
      challengeName: 'SOFTWARE_TOKEN_MFA',
      session: expect.stringMatching(/^[\w-]{43}$/),
      expiresIn: 300,
    });
    expect(signIn.headers.get('set-cookie')).toBeNull();
    expect(await sessionCount(userId)).toBe(sessionsBefore);
    // The challenge is kept as a hash only.
    const stored = await server().db.selectFrom('sign_in_challenges').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).toContain(hashOpaqueToken(signIn.body.data.session));
    expect(stored.map((r) => r.token_hash)).not.toContain(signIn.body.data.session);

    const code = codeOfStep(secret, (await lastUsedStep(userId)) + 1);
    const finish = await browser.post<{ idToken: string; user: { email: string } }>('/auth/sign-in/mfa', {
      session: signIn.body.data.session,
      code,
    });
    expect(finish.status).toBe(200);
    expect(finish.body.data.user.email).toBe(email);
    const cookie = finish.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ebs_refresh=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(await sessionCount(userId)).toBe(sessionsBefore + 1);
    const info = await browser.call<{ mfaEnabled: boolean }>('GET', '/api/v1.0/user', {
      token: finish.body.data.idToken,
    });
    expect(info.body.data.mfaEnabled).toBe(true);
    // The refresh cookie renews the session like any other.
    expect((await browser.post('/auth/refresh')).status).toBe(200);
  });

  it('refuses a wrong code with CodeMismatchException, opening nothing; the right code still works', async () => {
    const { email, password, userId, secret, browser } = await userWithTwoFactor();
    const session = await challenge(browser, email, password);
    const stepBefore = await lastUsedStep(userId);
    const sessionsBefore = await sessionCount(userId);

    const wrong = await browser.post('/auth/sign-in/mfa', { session, code: wrongCode(secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'CodeMismatchException', message: Messages.mfaCodeMismatch });
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(await sessionCount(userId)).toBe(sessionsBefore);
    expect(await lastUsedStep(userId)).toBe(stepBefore);

    const right = await browser.post('/auth/sign-in/mfa', { session, code: codeOfStep(secret, stepBefore + 1) });
    expect(right.status).toBe(200);
  });

  it('refuses a code whose time step was already used', async () => {
    const { email, password, userId, secret, browser } = await userWithTwoFactor();
    const enablingStep = await lastUsedStep(userId);
    const session = await challenge(browser, email, password);

    const replay = await browser.post('/auth/sign-in/mfa', { session, code: codeOfStep(secret, enablingStep) });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: 'CodeMismatchException', message: Messages.mfaCodeUsed });

    const next = codeOfStep(secret, enablingStep + 1);
    expect((await browser.post('/auth/sign-in/mfa', { session, code: next })).status).toBe(200);
    // The same code again, on a new sign-in: refused.
    const again = await browser.post('/auth/sign-in/mfa', {
      session: await challenge(browser, email, password),
      code: next,
    });
    expect(again.body.message).toBe(Messages.mfaCodeUsed);
  });

  it('takes each recovery code once, typed in any case and with or without the dash', async () => {
    const { email, password, recoveryCodes, browser } = await userWithTwoFactor();
    const code = recoveryCodes[0] ?? '';
    const typed = code.replace('-', '').toUpperCase();
    const first = await browser.post('/auth/sign-in/mfa', {
      session: await challenge(browser, email, password),
      code: typed,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveProperty('idToken');

    const second = await browser.post('/auth/sign-in/mfa', {
      session: await challenge(browser, email, password),
      code,
    });
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ error: 'CodeMismatchException', message: Messages.mfaCodeMismatch });
    // Another one still works.
    const other = await browser.post('/auth/sign-in/mfa', {
      session: await challenge(browser, email, password),
      code: recoveryCodes[1],
    });
    expect(other.status).toBe(200);
  });

  it('ends a challenge after five wrong codes, even for the right code', async () => {
    const { email, password, userId, secret, browser } = await userWithTwoFactor();
    const session = await challenge(browser, email, password);
    for (let i = 0; i < 5; i++) {
      const wrong = await browser.post('/auth/sign-in/mfa', { session, code: wrongCode(secret) });
      expect(wrong.body.error).toBe('CodeMismatchException');
    }
    const right = await browser.post('/auth/sign-in/mfa', {
      session,
      code: codeOfStep(secret, (await lastUsedStep(userId)) + 1),
    });
    expect(right.status).toBe(400);
    expect(right.body).toMatchObject({ error: 'NotAuthorizedException', message: Messages.mfaTooManyAttempts });
  });

  it('tells the user to sign in again for an expired, used or unknown challenge', async () => {
    const { email, password, userId, secret, recoveryCodes, browser } = await userWithTwoFactor();
    const session = await challenge(browser, email, password);
    await sql`update sign_in_challenges set expires_at = now() - interval '1 second'
      where token_hash = ${hashOpaqueToken(session)}`.execute(server().db);
    const expired = await browser.post('/auth/sign-in/mfa', {
      session,
      code: codeOfStep(secret, (await lastUsedStep(userId)) + 1),
    });
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: 'NotAuthorizedException', message: Messages.mfaChallengeExpired });

    const fresh = await challenge(browser, email, password);
    expect((await browser.post('/auth/sign-in/mfa', { session: fresh, code: recoveryCodes[0] })).status).toBe(200);
    const reused = await browser.post('/auth/sign-in/mfa', { session: fresh, code: recoveryCodes[1] });
    expect(reused.body.message).toBe(Messages.mfaChallengeExpired);

    const unknown = await browser.post('/auth/sign-in/mfa', { session: 'not-a-challenge', code: '123456' });
    expect(unknown.body.message).toBe(Messages.mfaChallengeExpired);
  });

  it('slows down wrong codes for one user from one address, across challenges', async () => {
    const { email, password, secret, browser } = await userWithTwoFactor();
    // Five wrong codes are free; then the address waits, whichever challenge it answers.
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const session = await challenge(browser, email, password);
      for (let i = 0; i < 4; i++) {
        statuses.push((await browser.post('/auth/sign-in/mfa', { session, code: wrongCode(secret) })).status);
      }
    }
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(400));
    expect(statuses.slice(5)).toEqual(Array(7).fill(429));
    const limited = await browser.post('/auth/sign-in/mfa', {
      session: await challenge(browser, email, password),
      code: wrongCode(secret),
    });
    expect(limited.body).toMatchObject({ error: 'LimitExceededException' });
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  it('asks for the password first: a wrong password gets no challenge', async () => {
    const { email, browser } = await userWithTwoFactor();
    const wrong = await browser.post('/auth/sign-in', { email, password: 'not the password 1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('NotAuthorizedException');
    expect(JSON.stringify(wrong.body)).not.toContain('SOFTWARE_TOKEN_MFA');
  });
});
