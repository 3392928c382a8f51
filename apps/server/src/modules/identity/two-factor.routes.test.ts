import { IdentityErrors, Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { unseal } from '../../secrets.ts';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { logSink } from '../../testing/log-sink.ts';
import { serverFor } from '../../testing/server.ts';
import { codeOfStep, totpCode, turnOnTwoFactor, wrongCode } from '../../testing/two-factor.ts';

describe.each(testDatabases)('two-factor settings on $name', (database) => {
  const sink = logSink();
  const server = serverFor(database, { LOG_LEVEL: 'debug' }, sink.stream);

  const mfaEnabled = async (c: Client) => (await c.get<{ mfaEnabled: boolean }>('/api/v1.0/user')).body.data.mfaEnabled;
  const secretRow = (userId: string) =>
    server()
      .db.selectFrom('two_factor_secrets')
      .select(['secret_sealed', 'confirmed_at', 'last_used_step'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  const recoveryRows = (userId: string) =>
    server().db.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', userId).execute();

  it('turns on with a current code: an otpauth URI, 10 recovery codes once, mfaEnabled in the user info', async () => {
    const c = new Client(server().url);
    const { email, userId } = await c.signUp();
    expect(await mfaEnabled(c)).toBe(false);

    const setup = await c.post<{ secret: string; uri: string }>('/auth/mfa/setup');
    expect(setup.status).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    const { secret, uri } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.host).toBe('totp');
    expect(decodeURIComponent(parsed.pathname)).toBe(`/EBS Console:${email}`);
    expect(Object.fromEntries(parsed.searchParams)).toMatchObject({
      secret,
      issuer: 'EBS Console',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    // Set up but not confirmed: still off.
    expect(await mfaEnabled(c)).toBe(false);

    const enabled = await c.post<{ mfaEnabled: boolean; recoveryCodes: string[] }>('/auth/mfa/enable', {
      code: totpCode(secret),
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.mfaEnabled).toBe(true);
    const codes = enabled.body.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await mfaEnabled(c)).toBe(true);

    // At rest: the secret sealed with the data key, the recovery codes as hashes only.
    const row = await secretRow(userId);
    expect(row?.confirmed_at).toBeTruthy();
    expect(row?.secret_sealed).not.toContain(secret);
    expect(unseal(server().deps.secrets.dataKey, row?.secret_sealed ?? '')).toBe(secret);
    const stored = (await recoveryRows(userId)).map((r) => r.code_hash);
    expect(stored).toHaveLength(10);
    for (const code of codes) {
      expect(stored.some((h) => h.includes(code) || h.includes(code.replace('-', '')))).toBe(false);
    }
  });

  it('refuses a wrong code when turning on, and changes nothing', async () => {
    const c = new Client(server().url);
    const { email, password, userId } = await c.signUp();
    const { secret } = (await c.post<{ secret: string }>('/auth/mfa/setup')).body.data;
    const wrong = await c.post('/auth/mfa/enable', { code: wrongCode(secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'CodeMismatchException', message: Messages.mfaCodeMismatch });
    expect(await mfaEnabled(c)).toBe(false);
    expect((await secretRow(userId))?.confirmed_at).toBeNull();
    expect(await recoveryRows(userId)).toHaveLength(0);
    // The sign-in stays a one-step sign-in.
    const signIn = await new Client(server().url).post('/auth/sign-in', { email, password });
    expect(signIn.body.data).toHaveProperty('idToken');
  });

  it('replaces an unconfirmed secret on a new setup, and refuses a setup once on', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const first = (await c.post<{ secret: string }>('/auth/mfa/setup')).body.data.secret;
    const second = (await c.post<{ secret: string }>('/auth/mfa/setup')).body.data.secret;
    expect(second).not.toBe(first);
    const stale = await c.post('/auth/mfa/enable', { code: totpCode(first) });
    expect(stale.body).toMatchObject({ error: 'CodeMismatchException' });
    expect((await c.post('/auth/mfa/enable', { code: totpCode(second) })).status).toBe(200);

    const again = await c.post('/auth/mfa/setup');
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(Messages.mfaAlreadyOn);
    const twice = await c.post('/auth/mfa/enable', { code: totpCode(second) });
    expect(twice.body.message).toBe(Messages.mfaAlreadyOn);
  });

  it('asks for a setup before turning on, and refuses to turn off what is not on', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const enable = await c.post('/auth/mfa/enable', { code: '123456' });
    expect(enable.status).toBe(400);
    expect(enable.body.message).toBe(Messages.mfaSetupFirst);
    const disable = await c.post('/auth/mfa/disable', { code: '123456' });
    expect(disable.status).toBe(400);
    expect(disable.body.message).toBe(Messages.mfaNotOn);
  });

  it('turns off only with a current code: a wrong one changes nothing, a right one forgets everything', async () => {
    const c = new Client(server().url);
    const { email, password, userId } = await c.signUp();
    const { secret } = await turnOnTwoFactor(c);

    const wrong = await c.post('/auth/mfa/disable', { code: wrongCode(secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject(IdentityErrors.mfaCodeMismatch);
    expect(await mfaEnabled(c)).toBe(true);
    const missing = await c.post('/auth/mfa/disable', {});
    expect(missing.status).toBe(400);
    expect(await mfaEnabled(c)).toBe(true);

    // The enabling code's step is used: the next step's code turns it off.
    const used = Number((await secretRow(userId))?.last_used_step);
    const off = await c.post<{ mfaEnabled: boolean }>('/auth/mfa/disable', { code: codeOfStep(secret, used + 1) });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ mfaEnabled: false });
    expect(await mfaEnabled(c)).toBe(false);
    expect(await secretRow(userId)).toBeUndefined();
    expect(await recoveryRows(userId)).toHaveLength(0);
    const signIn = await new Client(server().url).post('/auth/sign-in', { email, password });
    expect(signIn.body.data).toHaveProperty('idToken');
  });

  it('turns off with a recovery code instead of a code from the app', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const { recoveryCodes } = await turnOnTwoFactor(c);
    const off = await c.post('/auth/mfa/disable', { code: recoveryCodes[3] });
    expect(off.status).toBe(200);
    expect(await mfaEnabled(c)).toBe(false);
  });

  it('refuses bad bodies with the reason', async () => {
    const c = new Client(server().url);
    await c.signUp();
    await c.post('/auth/mfa/setup');
    const bad: Array<[string, unknown]> = [
      ['/auth/mfa/setup', { code: '123456' }],
      ['/auth/mfa/enable', {}],
      ['/auth/mfa/enable', { code: '12345' }],
      ['/auth/mfa/enable', { code: 'abcde-23456' }],
      ['/auth/mfa/enable', { code: '123456', extra: true }],
      ['/auth/mfa/disable', { code: '12345678' }],
      ['/auth/mfa/disable', { code: 123456 }],
      ['/auth/sign-in/mfa', { code: '123456' }],
      ['/auth/sign-in/mfa', { session: 'x', code: 'abc' }],
      ['/auth/sign-in/mfa', { session: '', code: '123456' }],
      ['/auth/sign-in/mfa', { session: 'x'.repeat(201), code: '123456' }],
    ];
    for (const [path, body] of bad) {
      const answer = await c.post(path, body);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.body.message.length).toBeGreaterThan(0);
    }
    expect(await mfaEnabled(c)).toBe(false);
  });

  it('refuses the settings without a session', async () => {
    const c = new Client(server().url);
    for (const path of ['/auth/mfa/setup', '/auth/mfa/enable', '/auth/mfa/disable']) {
      const answer = await c.call('POST', path, { body: { code: '123456' }, token: null });
      expect(answer.status, path).toBe(401);
      expect(answer.body).toMatchObject({ message: Messages.tokenExpired, error: 'Unauthorized' });
    }
  });

  it('sends the secret only in the setup answer and never logs it nor the recovery codes', async () => {
    const c = new Client(server().url);
    const { email, password } = await c.signUp();
    const { secret, recoveryCodes } = await turnOnTwoFactor(c);
    const answers: unknown[] = [];
    answers.push((await c.get('/api/v1.0/user')).body);
    const signIn = await new Client(server().url).post<{ session: string }>('/auth/sign-in', { email, password });
    answers.push(signIn.body);
    const finish = await new Client(server().url).post('/auth/sign-in/mfa', {
      session: signIn.body.data.session,
      code: recoveryCodes[0],
    });
    expect(finish.status).toBe(200);
    answers.push(finish.body);
    answers.push((await c.post('/auth/mfa/disable', { code: recoveryCodes[1] })).body);
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(secret);
    expect(sink.lines.length).toBeGreaterThan(0);
    const log = sink.lines.join('\n');
    expect(log).not.toContain(secret);
    for (const code of recoveryCodes) expect(log).not.toContain(code);
  });
});
