import { IdentityErrors } from '@ebs/contract';
import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';

/**
 * Who has an account is not told by sign-in, forgot-password, its confirmation or resend: a known
 * and an unknown address get the same answer. (Sign-up must say that an address is taken, and an
 * unconfirmed user is told so after the right password: docs/decisions.md.)
 */
describe.each(testDatabases)('answers that do not tell which e-mails exist, on $name', (database) => {
  const server = serverFor(database);
  const client = () => new Client(server().url);
  /** What a caller sees of an answer (both addresses mask alike: u***@e***.com). */
  const seen = (answer: Answer) => ({
    status: answer.status,
    retryAfter: answer.headers.get('retry-after'),
    body: answer.body,
  });
  const mails = async (email: string) =>
    ((await (await fetch(`${server().url}/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as unknown[])
      .length;
  let pairs = 0;
  const alike = async (known: string, unknown: string, call: (email: string) => Promise<Answer>) => {
    const [a, b] = [await call(known), await call(unknown)];
    expect(seen(b)).toEqual(seen(a));
    pairs++;
    return a;
  };
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('sign-in: a wrong password and an unknown e-mail, same answer, and both verify a password hash', async () => {
    const { email } = await client().signUp();
    const verify = vi.spyOn(argon2, 'verify');
    const answer = await alike(email, uniqueEmail(), (e) =>
      client().post('/auth/sign-in', { email: e, password: 'wrong pass 1' }),
    );
    expect(answer.body).toMatchObject({ statusCode: 400, ...IdentityErrors.notAuthorized });
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('sign-in: an unconfirmed user with a wrong password looks like nobody', async () => {
    const email = uniqueEmail();
    await client().post('/auth/sign-up', { email, password: 'violet tram 84', givenName: 'A', familyName: 'B' });
    await alike(email, uniqueEmail(), (e) => client().post('/auth/sign-in', { email: e, password: 'wrong pass 1' }));
  });

  it('forgot-password: the same answer, also when asked again within the minute; only the owner gets mail', async () => {
    const { email } = await client().signUp();
    const unknown = uniqueEmail();
    const ask = (e: string) => client().post('/auth/forgot-password', { email: e });
    const first = await alike(email, unknown, ask);
    expect(first.status).toBe(200);
    await alike(email, unknown, ask);
    expect(await mails(email)).toBe(2); // the sign-up code and one reset code
    expect(await mails(unknown)).toBe(0);
  });

  it('confirm-forgot-password: an unknown e-mail answers as an account that asked for no code', async () => {
    const { email } = await client().signUp();
    const answer = await alike(email, uniqueEmail(), (e) =>
      client().post('/auth/confirm-forgot-password', { email: e, code: '123456', newPassword: 'new secret 9' }),
    );
    expect(answer.body).toMatchObject({ statusCode: 400, ...IdentityErrors.expiredCode });
  });

  it('resend-code: a confirmed user and an unknown e-mail, same answer', async () => {
    const { email } = await client().signUp();
    const answer = await alike(email, uniqueEmail(), (e) => client().post('/auth/resend-code', { email: e }));
    expect(answer.status).toBe(200);
    reportFigures('hardening: account enumeration', { 'known and unknown pairs answered alike': pairs });
  });
});
