import { IdentityErrors } from '@ebs/contract';
import argon2 from 'argon2';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';
import { turnOnTwoFactor } from '../../testing/two-factor.ts';

/**
 * Whoever signs up again with someone's pending e-mail gets the first sign-up's answer and nothing
 * else: the password, names and referral code stay the owner's, and the owner's code keeps working.
 */
describe.each(testDatabases)('a repeated sign-up of a pending e-mail, on $name', (database) => {
  const server = serverFor(database);
  const client = () => new Client(server().url);
  const figures = { 'repeated sign-ups': 0, 'credentials replaced': 0, 'answers that differed': 0 };
  const mailbox = async (email: string) =>
    (await (await fetch(`${server().url}/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as Array<{
      subject: string;
      text: string;
    }>;
  /** As if the code mailed to the address had been sent minutes ago: its resend wait is over. */
  const ageCodes = (email: string) =>
    sql`update verification_codes set created_at = created_at - interval '10 minutes'
      where user_id = (select id from users where email = ${email})`.execute(server().db);
  const signUp = (email: string, password: string, givenName: string) =>
    client().post('/auth/sign-up', { email, password, givenName, familyName: `${givenName}son` });
  const seen = (answer: Answer) => ({ status: answer.status, body: answer.body });
  const repeat = async (first: Answer, email: string, password: string, givenName: string) => {
    const again = await signUp(email, password, givenName);
    figures['repeated sign-ups']++;
    if (JSON.stringify(seen(again)) !== JSON.stringify(seen(first))) figures['answers that differed']++;
    expect(seen(again)).toEqual(seen(first));
    return again;
  };
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a repeated sign-up of a pending e-mail never replaces its password', async () => {
    const email = uniqueEmail();
    const first = await signUp(email, 'owner secret 1', 'Olive');
    await ageCodes(email);
    await repeat(first, email, 'attacker secret 2', 'Mallory');
    const owner = client();
    const confirmed = await owner.post<{ user: { givenName: string } }>('/auth/confirm-sign-up', {
      email,
      code: await owner.mailedCode(email),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.user.givenName).toBe('Olive');
    const attacker = await client().post('/auth/sign-in', { email, password: 'attacker secret 2' });
    if (attacker.status === 200) figures['credentials replaced']++;
    expect(attacker.body).toMatchObject(IdentityErrors.notAuthorized);
    expect((await client().post('/auth/sign-in', { email, password: 'owner secret 1' })).status).toBe(200);
  });

  it("signing up first with someone's e-mail leaves the stranger's password off the account the owner confirms", async () => {
    const email = uniqueEmail();
    const attacker = client();
    await attacker.post('/auth/sign-up', {
      email,
      password: 'attacker secret 2',
      givenName: 'Mallory',
      familyName: 'M',
    });
    await ageCodes(email);
    // The owner signs up in their own browser, which keeps the sign-up's token, and confirms there.
    const owner = client();
    const own = await owner.post('/auth/sign-up', {
      email,
      password: 'owner secret 1',
      givenName: 'Olive',
      familyName: 'O',
    });
    expect(own.status).toBe(200);
    const confirmed = await owner.post<{ user: { givenName: string } }>('/auth/confirm-sign-up', {
      email,
      code: await owner.mailedCode(email),
    });
    expect(confirmed.body.data.user.givenName).toBe('Olive');
    const stranger = await client().post('/auth/sign-in', { email, password: 'attacker secret 2' });
    if (stranger.status === 200) figures['credentials replaced']++;
    expect(stranger.body).toMatchObject(IdentityErrors.notAuthorized);
    expect((await client().post('/auth/sign-in', { email, password: 'owner secret 1' })).status).toBe(200);
    // Every sign-up's details are forgotten once the e-mail is confirmed.
    const left = await sql<{ n: number }>`select count(*)::int as n from sign_up_attempts`.execute(server().db);
    expect(left.rows[0]?.n).toBe(0);
  });

  it('a repeated sign-up within the code wait answers as the first one did and still hashes the password', async () => {
    const email = uniqueEmail();
    const first = await signUp(email, 'owner secret 1', 'Olive');
    const hash = vi.spyOn(argon2, 'hash');
    await repeat(first, email, 'attacker secret 2', 'Mallory');
    expect(hash).toHaveBeenCalledTimes(1);
    expect(await mailbox(email)).toHaveLength(1);
  });

  it('a repeated sign-up after the wait only mails the code again', async () => {
    const email = uniqueEmail();
    const first = await signUp(email, 'owner secret 1', 'Olive');
    await ageCodes(email);
    await repeat(first, email, 'attacker secret 2', 'Mallory');
    const mails = await mailbox(email);
    expect(mails).toHaveLength(2);
    const owner = client();
    const code = await owner.mailedCode(email);
    const names = await owner.post<{ user: { givenName: string; familyName: string } }>('/auth/confirm-sign-up', {
      email,
      code,
    });
    expect(names.body.data.user).toMatchObject({ givenName: 'Olive', familyName: 'Oliveson' });
  });

  it('a password reset turns two-factor sign-in off only with the mailed code, and says so by e-mail', async () => {
    const owner = client();
    const { email } = await owner.signUp();
    await turnOnTwoFactor(owner);
    await client().post('/auth/forgot-password', { email });
    const code = await owner.mailedCode(email);
    const wrong = await client().post('/auth/confirm-forgot-password', {
      email,
      code: code === '000000' ? '111111' : '000000',
      newPassword: 'after reset 1',
    });
    expect(wrong.body).toMatchObject(IdentityErrors.codeMismatch);
    const stillOn = await client().post<{ challengeName?: string }>('/auth/sign-in', {
      email,
      password: 'correct horse 1',
    });
    expect(stillOn.body.data.challengeName).toBeDefined();

    const reset = await client().post('/auth/confirm-forgot-password', { email, code, newPassword: 'after reset 1' });
    expect(reset.status).toBe(200);
    const signedIn = await client().post<{ idToken?: string }>('/auth/sign-in', { email, password: 'after reset 1' });
    expect(signedIn.body.data.idToken).toEqual(expect.any(String));
    const [notice] = await mailbox(email);
    expect(notice?.subject).toMatch(/two-factor sign-in was turned off/i);
    expect(notice?.text).toMatch(/password was reset/i);
    reportFigures('hardening: repeated sign-up of a pending e-mail', figures);
  });
});
