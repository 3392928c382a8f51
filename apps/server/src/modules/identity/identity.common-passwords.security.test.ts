import { IdentityErrors } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { type Answer, Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';

/** Breached passwords that pass the length, letter and digit rules, in the cases people type them. */
const BREACHED = ['password1', 'Password1', 'ABCD1234', 'qwerty123', 'Passw0rd', 'iloveyou1', '1q2w3e4r', 'trustno1'];

describe.each(testDatabases)('common breached passwords, on $name', (database) => {
  const server = serverFor(database);
  const client = () => new Client(server().url);
  const figures = { 'breached passwords tried': 0, accepted: 0 };
  const expectRefused = (answer: Answer) => {
    figures['breached passwords tried']++;
    if (answer.status === 200) figures.accepted++;
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject(IdentityErrors.commonPassword);
  };

  it('a sign-up with a common breached password is refused, whatever its case', async () => {
    for (const password of BREACHED) {
      expectRefused(
        await client().post('/auth/sign-up', { email: uniqueEmail(), password, givenName: 'A', familyName: 'B' }),
      );
    }
    const fine = await client().post('/auth/sign-up', {
      email: uniqueEmail(),
      password: 'violet tram 84',
      givenName: 'A',
      familyName: 'B',
    });
    expect(fine.status).toBe(200);
  });

  it('a password reset to a common breached password is refused and the old password stays', async () => {
    const c = client();
    const { email, password } = await c.signUp();
    await c.post('/auth/forgot-password', { email });
    const code = await c.mailedCode(email);
    expectRefused(await c.post('/auth/confirm-forgot-password', { email, code, newPassword: 'Password1' }));
    expect((await client().post('/auth/sign-in', { email, password })).status).toBe(200);
  });

  it('a password change to a common breached password is refused and the old password stays', async () => {
    const c = client();
    const { email, password } = await c.signUp();
    expectRefused(await c.post('/auth/change-password', { oldPassword: password, newPassword: 'qwerty123' }));
    expect((await client().post('/auth/sign-in', { email, password })).status).toBe(200);
    reportFigures('hardening: common breached passwords', figures);
  });
});
