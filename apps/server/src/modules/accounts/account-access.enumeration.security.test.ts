import type { AccountDetails, AccountSummary } from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';

describe.each(testDatabases)('Add User as an e-mail lookup on $name', (database) => {
  const server = serverFor(database);
  const figures = { emails: 0, distinctAnswers: 0, distinctRows: 0 };
  afterAll(() => reportFigures(`add user enumeration (${database.name})`, figures));

  it('answers alike, and lists alike, for an e-mail that has a user and one that has none', async () => {
    const owner = new Client(server().url);
    await owner.signUp();
    const id = (await owner.post<AccountSummary>('/api/v1.0/account', { accountName: 'Probe' })).body.data.id;
    const h = { 'ebs-account-id': id };
    const existing = new Client(server().url);
    const { email: userEmail } = await existing.signUp();
    const emails = [userEmail, uniqueEmail(), uniqueEmail()];
    figures.emails = emails.length;

    // What the owner is told and shown, with the address itself taken out.
    const answers = new Set<string>();
    for (const email of emails) {
      const answer = await owner.post('/api/v1.0/account/user', { email }, h);
      answers.add(JSON.stringify([answer.status, answer.body]).replaceAll(email, 'EMAIL'));
    }
    const roles = (await owner.get<AccountDetails>('/api/v1.0/account/details', h)).body.data.userRoles;
    const rows = new Set(
      roles.filter((r) => emails.includes(r.email)).map((r) => JSON.stringify({ ...r, id: '', email: '' })),
    );
    figures.distinctAnswers = answers.size;
    figures.distinctRows = rows.size;
    expect([...answers]).toHaveLength(1);
    expect(roles.filter((r) => emails.includes(r.email))).toHaveLength(emails.length);
    expect([...rows]).toEqual([
      JSON.stringify({ id: '', email: '', firstName: '', lastName: '', roleName: 'INVITED' }),
    ]);

    // The user with the address still joins: at their next look at their accounts.
    const joined = (await existing.get<{ accounts: AccountSummary[] }>('/api/v1.0/account?limit=10&offset=0')).body.data
      .accounts;
    expect(joined.map((a) => [a.id, a.roleName])).toEqual([[id, 'MEMBER']]);
    expect((await existing.get('/api/v1.0/account/details', h)).status).toBe(200);
  });
});
