import { Messages, type UserInfo } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';

describe.each(testDatabases)('welcome credit on $name', (database) => {
  const server = serverFor(database);

  const owner = async (...names: string[]) => {
    const c = new Client(server().url);
    await c.signUp();
    const ids: string[] = [];
    for (const accountName of names)
      ids.push((await c.post<{ id: string }>('/api/v1.0/account', { accountName })).body.data.id);
    return { c, ids };
  };
  const redeem = (
    c: Client,
    accountId: string,
    body: Record<string, unknown> = { accountId, type: 'WELCOME_CREDIT' },
  ) => c.post('/api/v1.0/account/redeemBonus', body, { 'ebs-account-id': accountId });
  const ledger = (accountId: string) =>
    server()
      .db.selectFrom('account_transactions')
      .select(['type', 'amount'])
      .where('account_id', '=', accountId)
      .execute();

  it('posts 10 USD as WELCOME_CREDIT once and marks the user as having redeemed it', async () => {
    const { c, ids } = await owner('first', 'second');
    const [first = '', second = ''] = ids;
    const answer = await redeem(c, first);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Welcome credit of 10 USD has been added.');
    expect(answer.body.data).toMatchObject({ accountId: first, type: 'WELCOME_CREDIT', amount: 10 });
    expect(
      (await c.get<{ balance: number }>('/api/v1.0/account/details', { 'ebs-account-id': first })).body.data.balance,
    ).toBe(10);
    expect((await c.get<UserInfo>('/api/v1.0/user')).body.data.bonusRedemption.welcomeCredit).toBe(true);

    const again = await redeem(c, second);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(Messages.welcomeCreditRedeemed);
    expect(await ledger(second)).toEqual([]);
  });

  it('posts it once when twenty requests race', async () => {
    const { c, ids } = await owner('racing');
    const accountId = ids[0] ?? '';
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(c, accountId)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(19);
    expect(await ledger(accountId)).toHaveLength(1);
  });

  it.each<[Record<string, string>, string]>([
    [{ type: 'WELCOME_CREDIT' }, "body must have property 'accountId'"],
    [{ accountId: 'x', type: 'WELCOME_CREDIT' }, 'body.accountId must match format "uuid"'],
    [{ accountId: 'SELF', type: 'REFERRAL' }, 'body.type must be equal to constant'],
    [{ accountId: '00000000-0000-4000-8000-000000000000', type: 'WELCOME_CREDIT' }, Messages.bonusAccountMismatch],
  ])('refuses %j and changes nothing', async (body, message) => {
    const { c, ids } = await owner('strict');
    const accountId = ids[0] ?? '';
    const answer = await redeem(c, accountId, { ...body, ...(body.accountId === 'SELF' ? { accountId } : {}) });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect(await ledger(accountId)).toEqual([]);
    expect((await c.get<UserInfo>('/api/v1.0/user')).body.data.bonusRedemption.welcomeCredit).toBe(false);
  });
});
