import { Messages, type UserInfo } from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { ledgerViolations } from '../../testing/ledger-invariants.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';

const MEMBERS = 4;

describe.each(testDatabases)('welcome credit farming on $name', (database) => {
  const server = serverFor(database);
  const figures = { members: MEMBERS, attempts: 0, refused: 0, credited: 0 };
  afterAll(() => reportFigures(`welcome credit farming (${database.name})`, figures));

  const redeem = (c: Client, accountId: string) =>
    c.post('/api/v1.0/account/redeemBonus', { accountId, type: 'WELCOME_CREDIT' }, { 'ebs-account-id': accountId });
  const credits = async (accountId: string) =>
    (
      await server()
        .db.selectFrom('account_transactions')
        .select('amount')
        .where('account_id', '=', accountId)
        .where('type', '=', 'WELCOME_CREDIT')
        .execute()
    ).length;

  it('an owner collects no welcome credit through the members of their account', async () => {
    const owner = new Client(server().url);
    await owner.signUp();
    const accountId = (await owner.post<{ id: string }>('/api/v1.0/account', { accountName: 'farm' })).body.data.id;
    const h = { 'ebs-account-id': accountId };

    for (let i = 0; i < MEMBERS; i++) {
      const member = new Client(server().url);
      const { email } = await member.signUp();
      expect((await owner.post('/api/v1.0/account/user', { email }, h)).status).toBe(200);
      // The member sees the account once they open their list (an invitation is taken up there).
      await member.get('/api/v1.0/account?limit=10&offset=0');
      expect((await member.get('/api/v1.0/account/details', h)).status).toBe(200);

      const answer = await redeem(member, accountId);
      figures.attempts++;
      if (answer.status === 403) figures.refused++;
      expect({ status: answer.status, message: answer.body.message }).toEqual({
        status: 403,
        message: Messages.ownerOnlyWelcomeCredit,
      });
      // Refused, the member keeps their own credit for an account of their own.
      expect((await member.get<UserInfo>('/api/v1.0/user')).body.data.bonusRedemption.welcomeCredit).toBe(false);
    }
    expect(await credits(accountId)).toBe(0);

    figures.attempts++;
    expect((await redeem(owner, accountId)).status).toBe(200);
    figures.credited = await credits(accountId);
    expect(figures.credited).toBe(1);
    expect(await ledgerViolations(server().db)).toEqual([]);
  });

  it('a member who owns no account of their own still cannot spend their credit on the one they joined', async () => {
    const owner = new Client(server().url);
    await owner.signUp();
    const accountId = (await owner.post<{ id: string }>('/api/v1.0/account', { accountName: 'joined' })).body.data.id;
    const h = { 'ebs-account-id': accountId };
    const member = new Client(server().url);
    const { email } = await member.signUp();
    await owner.post('/api/v1.0/account/user', { email }, h);
    await member.get('/api/v1.0/account?limit=10&offset=0');

    const racing = await Promise.all(Array.from({ length: 5 }, () => redeem(member, accountId)));
    figures.attempts += racing.length;
    figures.refused += racing.filter((a) => a.status === 403).length;
    expect(racing.map((a) => a.status)).toEqual([403, 403, 403, 403, 403]);
    expect(await credits(accountId)).toBe(0);
  });
});
