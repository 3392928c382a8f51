import { IdentityErrors, Messages } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';

describe.each(testDatabases)('identity refusals on $name', (database) => {
  const server = serverFor(database);
  const client = () => new Client(server().url);

  const expectError = (
    answer: { status: number; body: { message: string; error?: string } },
    status: number,
    expected: { message: string; error?: string },
  ) => {
    expect(answer.status).toBe(status);
    expect(answer.body.message).toBe(expected.message);
    if (expected.error) expect(answer.body.error).toBe(expected.error);
  };

  it('refuses a sign-up with a missing field and names it', async () => {
    const answer = await client().post('/auth/sign-up', {
      email: uniqueEmail(),
      password: 'violet tram 84',
      givenName: 'A',
    });
    expectError(answer, 400, { message: "body must have property 'familyName'", error: 'Bad Request' });
  });

  it('refuses a malformed e-mail', async () => {
    const answer = await client().post('/auth/sign-up', {
      email: 'not-an-email',
      password: 'violet tram 84',
      givenName: 'A',
      familyName: 'B',
    });
    expectError(answer, 400, { message: Messages.invalidEmail, error: 'InvalidParameterException' });
  });

  it('refuses a password outside the policy', async () => {
    const answer = await client().post('/auth/sign-up', {
      email: uniqueEmail(),
      password: 'short',
      givenName: 'A',
      familyName: 'B',
    });
    expectError(answer, 400, IdentityErrors.invalidPassword);
  });

  it('refuses a confirmation that differs from the password with "Password miss match!"', async () => {
    const answer = await client().post('/auth/sign-up', {
      email: uniqueEmail(),
      password: 'violet tram 84',
      passwordConfirm: 'abcdefg2',
      givenName: 'A',
      familyName: 'B',
    });
    expectError(answer, 400, { message: 'Password miss match!', error: 'InvalidParameterException' });
  });

  it('refuses a first or last name with a line break or a tab (names go into e-mails), and creates no user', async () => {
    const email = uniqueEmail();
    const names = [
      { givenName: 'Nora\r\nSECURITY NOTICE', familyName: 'B', message: Messages.firstNameInvalid },
      { givenName: 'Nora', familyName: 'Lee\tX', message: Messages.lastNameInvalid },
    ];
    for (const { message, ...name } of names) {
      const answer = await client().post('/auth/sign-up', { email, password: 'violet tram 84', ...name });
      expectError(answer, 400, { message, error: 'InvalidParameterException' });
    }
    const users = await server().db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toEqual([]);
  });

  it('refuses a referral code that does not exist', async () => {
    const answer = await client().post('/auth/sign-up', {
      email: uniqueEmail(),
      password: 'violet tram 84',
      givenName: 'A',
      familyName: 'B',
      referralCode: 'NOPE1234',
    });
    expectError(answer, 400, { message: 'Referral code does not exist.' });
  });

  it('refuses a second sign-up of a confirmed e-mail', async () => {
    const { email } = await client().signUp();
    const answer = await client().post('/auth/sign-up', {
      email,
      password: 'violet tram 84',
      givenName: 'A',
      familyName: 'B',
    });
    expectError(answer, 400, IdentityErrors.usernameExists);
  });

  it('refuses a wrong verification code and keeps the user unconfirmed', async () => {
    const c = client();
    const email = uniqueEmail();
    await c.post('/auth/sign-up', { email, password: 'violet tram 84', givenName: 'A', familyName: 'B' });
    const code = await c.mailedCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    expectError(await c.post('/auth/confirm-sign-up', { email, code: wrong }), 400, IdentityErrors.codeMismatch);
    expectError(
      await c.post('/auth/sign-in', { email, password: 'violet tram 84' }),
      400,
      IdentityErrors.userNotConfirmed,
    );
  });

  it('refuses a code that is not six digits', async () => {
    const answer = await client().post('/auth/confirm-sign-up', { email: uniqueEmail(), code: '12ab' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('body.code must match pattern "^\\d{6}$"');
  });

  it('refuses an expired code', async () => {
    const c = client();
    const email = uniqueEmail();
    await c.post('/auth/sign-up', { email, password: 'violet tram 84', givenName: 'A', familyName: 'B' });
    const code = await c.mailedCode(email);
    await sql`update verification_codes set expires_at = now() - interval '1 second'
      where user_id = (select id from users where email = ${email})`.execute(server().db);
    expectError(await c.post('/auth/confirm-sign-up', { email, code }), 400, IdentityErrors.expiredCode);
  });

  it('refuses a reset code used once already', async () => {
    const c = client();
    const { email } = await c.signUp();
    await c.post('/auth/forgot-password', { email });
    const code = await c.mailedCode(email);
    const first = await c.post('/auth/confirm-forgot-password', { email, code, newPassword: 'new password 2' });
    expect(first.status).toBe(200);
    const again = await c.post('/auth/confirm-forgot-password', { email, code, newPassword: 'new password 3' });
    expectError(again, 400, IdentityErrors.expiredCode);
  });

  it('burns a code after five wrong tries', async () => {
    const c = client();
    const email = uniqueEmail();
    await c.post('/auth/sign-up', { email, password: 'violet tram 84', givenName: 'A', familyName: 'B' });
    const code = await c.mailedCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await c.post('/auth/confirm-sign-up', { email, code: wrong });
    expectError(await c.post('/auth/confirm-sign-up', { email, code }), 429, IdentityErrors.limitExceeded);
  });

  it('refuses a wrong password, and an unknown user, with the same words', async () => {
    const { email } = await client().signUp();
    expectError(
      await client().post('/auth/sign-in', { email, password: 'wrong pass 1' }),
      400,
      IdentityErrors.notAuthorized,
    );
    expectError(
      await client().post('/auth/sign-in', { email: uniqueEmail(), password: 'wrong pass 1' }),
      400,
      IdentityErrors.notAuthorized,
    );
  });

  it('tells an unconfirmed user so, only after the right password', async () => {
    const email = uniqueEmail();
    await client().post('/auth/sign-up', { email, password: 'violet tram 84', givenName: 'A', familyName: 'B' });
    expectError(
      await client().post('/auth/sign-in', { email, password: 'other pass 1' }),
      400,
      IdentityErrors.notAuthorized,
    );
    expectError(
      await client().post('/auth/sign-in', { email, password: 'violet tram 84' }),
      400,
      IdentityErrors.userNotConfirmed,
    );
  });

  it('slows down wrong passwords per e-mail and address with a clear message and Retry-After', async () => {
    const { email } = await client().signUp();
    for (let i = 0; i < 10; i++) await client().post('/auth/sign-in', { email, password: 'wrong pass 1' });
    const limited = await client().post('/auth/sign-in', { email, password: 'correct horse 1' });
    expectError(limited, 429, IdentityErrors.limitExceeded);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('makes a resend wait for the 60 second countdown', async () => {
    const email = uniqueEmail();
    await client().post('/auth/sign-up', { email, password: 'violet tram 84', givenName: 'A', familyName: 'B' });
    const answer = await client().post('/auth/resend-code', { email });
    expect(answer.status).toBe(429);
    expect(answer.body.error).toBe('LimitExceededException');
    expect(answer.body.message).toMatch(/^Please wait (59|60) seconds before requesting another code\.$/);
  });

  it('refuses a wrong old password on change', async () => {
    const c = client();
    await c.signUp();
    const answer = await c.post('/auth/change-password', { oldPassword: 'not it 1234', newPassword: 'brand new 9' });
    expectError(answer, 400, IdentityErrors.wrongOldPassword);
  });

  it('refuses change-password without a session', async () => {
    const answer = await client().post('/auth/change-password', { oldPassword: 'a', newPassword: 'brand new 9' });
    expectError(answer, 401, { message: 'Token expired', error: 'Unauthorized' });
  });

  it('refuses unknown fields in an identity body', async () => {
    const answer = await client().post('/auth/sign-in', { email: uniqueEmail(), password: 'x', admin: true });
    expectError(answer, 400, { message: "body must not have property 'admin'" });
  });
});
