import { IdentityErrors } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Answer, Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';
import { codeOfStep, currentStep, turnOnTwoFactor, wrongCode } from '../../testing/two-factor.ts';

const ATTACKER = '203.0.113.7';
const OWNER = '198.51.100.9';

/**
 * Someone who knows only an e-mail (or also the password, for the second factor) can slow down
 * their own guessing, never the owner: failures count per e-mail and address, only failures count,
 * and the owner's right proof from another address goes through.
 */
describe.each(testDatabases)('nobody can lock a user out, on $name', (database) => {
  const server = serverFor(database, { TRUST_PROXY: '1' });
  const client = () => new Client(server().url);
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const figures = { 'wrong proofs sent': 0, 'held back (429)': 0, 'owner refused': 0, 'longest Retry-After s': 0 };
  /** Sends a wrong proof; a 429 must say how long to wait. */
  const wrong = async (send: () => Promise<Answer>) => {
    const answer = await send();
    figures['wrong proofs sent']++;
    if (answer.status === 429) {
      figures['held back (429)']++;
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      figures['longest Retry-After s'] = Math.max(figures['longest Retry-After s'], retryAfter);
    }
    return answer;
  };
  const owner = (answer: Answer) => {
    if (answer.status !== 200) figures['owner refused']++;
    expect(answer.status).toBe(200);
    return answer;
  };

  it('ten wrong passwords from one address never refuse the owner’s password from another', async () => {
    const { email, password } = await client().signUp();
    const answers: Answer[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(
        await wrong(() => client().post('/auth/sign-in', { email, password: `guess number ${i}` }, from(ATTACKER))),
      );
    }
    // The guesser is slowed down: past the free failures it is told to wait, and waits grow.
    expect(answers.at(-1)?.body).toMatchObject(IdentityErrors.limitExceeded);
    owner(await client().post('/auth/sign-in', { email, password }, from(OWNER)));
  });

  it('only failures count: the owner signs in many times in a row', async () => {
    const { email, password } = await client().signUp();
    for (let i = 0; i < 12; i++) owner(await client().post('/auth/sign-in', { email, password }, from(OWNER)));
  });

  it('a right password forgets its own address’s failures', async () => {
    const { email, password } = await client().signUp();
    for (let i = 0; i < 4; i++) {
      await wrong(() => client().post('/auth/sign-in', { email, password: `typo number ${i}` }, from(OWNER)));
    }
    owner(await client().post('/auth/sign-in', { email, password }, from(OWNER)));
    for (let i = 0; i < 4; i++) {
      const typo = await wrong(() =>
        client().post('/auth/sign-in', { email, password: `typo again ${i}` }, from(OWNER)),
      );
      expect(typo.body).toMatchObject(IdentityErrors.notAuthorized);
    }
  });

  it('ten bad reset codes from one address never refuse the owner’s code from another', async () => {
    const c = client();
    const { email, password } = await c.signUp();
    await c.post('/auth/forgot-password', { email }, from(OWNER));
    const first = await c.mailedCode(email);
    for (let i = 0; i < 10; i++) {
      const guess = String((Number(first) + 1 + i) % 1_000_000).padStart(6, '0');
      await wrong(() =>
        client().post(
          '/auth/confirm-forgot-password',
          { email, code: guess, newPassword: 'taken over 77' },
          from(ATTACKER),
        ),
      );
    }
    // A code dies after five wrong tries from anywhere, as a provider's does; the owner asks again.
    await sql`update verification_codes set created_at = created_at - interval '10 minutes'
      where user_id = (select id from users where email = ${email})`.execute(server().db);
    await c.post('/auth/forgot-password', { email }, from(OWNER));
    const code = await c.mailedCode(email);
    owner(
      await client().post('/auth/confirm-forgot-password', { email, code, newPassword: 'owner again 55' }, from(OWNER)),
    );
    expect((await client().post('/auth/sign-in', { email, password }, from(OWNER))).status).toBe(400);
  });

  it('ten wrong authenticator codes from one address never refuse the owner’s code from another', async () => {
    const c = client();
    const { email, password } = await c.signUp();
    const { secret } = await turnOnTwoFactor(c);
    const challenge = async (address: string) =>
      (await client().post<{ session: string }>('/auth/sign-in', { email, password }, from(address))).body.data.session;
    for (let round = 0; round < 2; round++) {
      const session = await challenge(ATTACKER);
      for (let i = 0; i < 5; i++) {
        await wrong(() => client().post('/auth/sign-in/mfa', { session, code: wrongCode(secret) }, from(ATTACKER)));
      }
    }
    const session = await challenge(OWNER);
    owner(
      await client().post('/auth/sign-in/mfa', { session, code: codeOfStep(secret, currentStep() + 1) }, from(OWNER)),
    );
    reportFigures('hardening: no lock-out by others’ failures', figures);
  });
});
