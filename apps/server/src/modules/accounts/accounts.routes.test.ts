import { type AccountDetails, type AccountList, type AccountSummary, Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { setFeature } from './accounts.store.ts';

describe.each(testDatabases)('accounts on $name', (database) => {
  const server = serverFor(database);

  const signedIn = async () => {
    const c = new Client(server().url);
    await c.signUp();
    return c;
  };
  const create = (c: Client, accountName: string) => c.post<AccountSummary>('/api/v1.0/account', { accountName });
  const list = (c: Client, limit: number, offset: number) =>
    c.get<AccountList>(`/api/v1.0/account?limit=${limit}&offset=${offset}`, { 'ebs-account-id': '' });

  it('creates an account owned by its creator, suspended until it has credit, with the spec message', async () => {
    const c = await signedIn();
    const answer = await create(c, 'Main_net.ops/1=2+3-4');
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Main_net.ops/1=2+3-4 has been created.');
    expect(answer.body.data).toMatchObject({
      name: 'Main_net.ops/1=2+3-4',
      roleName: 'OWNER',
      status: 'SUSPENDED',
      isBillingApiEnabled: false,
    });
    expect(answer.body.data.accountId).toBe(answer.body.data.id);
  });

  it.each(['', 'emoji 🚀', 'semi;colon', 'é-accent', 'x'.repeat(257)])('refuses the account name %j', async (name) => {
    const c = await signedIn();
    const answer = await create(c, name);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(Messages.invalidAccountName);
    expect((await list(c, 10, 0)).body.data.total).toBe(0);
  });

  it('refuses the eleventh account with "Accounts has reached the limit 10."', async () => {
    const c = await signedIn();
    for (let i = 1; i <= 10; i++) expect((await create(c, `acc ${i}`)).status).toBe(200);
    const eleventh = await create(c, 'acc 11');
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.message).toBe('Accounts has reached the limit 10.');
    expect((await list(c, 100, 0)).body.data.total).toBe(10);
  });

  it('keeps the limit under concurrent creation', async () => {
    const c = await signedIn();
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => create(c, `race ${i}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect((await list(c, 100, 0)).body.data.total).toBe(10);
  });

  it('pages the list with limit and offset and reports total and count', async () => {
    const c = await signedIn();
    for (const name of ['one', 'two', 'three']) await create(c, name);
    const page = await list(c, 2, 1);
    expect(page.body.data).toMatchObject({ limit: 2, offset: 1, total: 3, count: 2 });
    expect(page.body.data.accounts.map((a) => a.name)).toEqual(['two', 'three']);
  });

  it('lists only the accounts the caller belongs to', async () => {
    const a = await signedIn();
    const b = await signedIn();
    await create(a, 'alpha');
    expect((await list(b, 10, 0)).body.data.accounts).toEqual([]);
  });

  it('refuses a page size over 100', async () => {
    const c = await signedIn();
    const answer = await list(c, 101, 0);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('querystring.limit must be <= 100');
  });

  it('details an account: balance, pending amount, owner and roles', async () => {
    const c = await signedIn();
    const { id } = (await create(c, 'detailed')).body.data;
    await server()
      .db.insertInto('account_transactions')
      .values([
        { account_id: id, type: 'WELCOME_CREDIT', amount: '10', status: 'COMPLETED' },
        { account_id: id, type: 'WITHDRAW_RESOURCE_USAGE', amount: '-0.1', status: 'COMPLETED' },
        { account_id: id, type: 'WITHDRAW_RESOURCE_USAGE', amount: '-0.2', status: 'COMPLETED' },
        { account_id: id, type: 'DEPOSIT_ONE_TIME', amount: '25.5', status: 'PENDING' },
        { account_id: id, type: 'WITHDRAW_RESOURCE_USAGE', amount: '-1.25', status: 'PENDING' },
      ])
      .execute();
    await server().deps.jobs.billing?.();
    const details = await c.get<AccountDetails>('/api/v1.0/account/details', { 'ebs-account-id': id });
    expect(details.body.data).toMatchObject({
      id,
      name: 'detailed',
      balance: 9.7,
      amountPending: 1.25,
      status: 'ACTIVE',
    });
    expect(details.body.data.userRoles).toHaveLength(1);
    expect(details.body.data.userRoles[0]?.roleName).toBe('OWNER');
    expect(details.body.data.owner.email).toBe(details.body.data.userRoles[0]?.email);
    expect(details.body.data.setting).toEqual({
      autoDeposit: { autoDepositEnabled: false, minBalance: null, autoDepositAmount: null },
      spendingCap: { monthlyCapUsd: null, autoPayMonthlyMaxUsd: null },
    });
  });

  it('answers the TOKEN_FORWARDING feature check per account', async () => {
    const c = await signedIn();
    const { id } = (await create(c, 'features')).body.data;
    const check = () =>
      c.get<{ result: boolean }>('/api/v1.0/feature/isAccountValidForFeature?featureName=TOKEN_FORWARDING', {
        'ebs-account-id': id,
      });
    expect((await check()).body.data.result).toBe(false);
    await setFeature(server().db, id, 'TOKEN_FORWARDING', true);
    expect((await check()).body.data.result).toBe(true);
    const unknown = await c.get('/api/v1.0/feature/isAccountValidForFeature?featureName=OTHER', {
      'ebs-account-id': id,
    });
    expect(unknown.status).toBe(400);
  });

  it('answers the DEPOSIT and ADD_PAYMENT_CARD settings', async () => {
    const c = await signedIn();
    expect((await c.get('/api/v1.0/setting?name=DEPOSIT')).body.data).toEqual({
      name: 'DEPOSIT',
      settings: { minAmount: 1 },
    });
    expect((await c.get('/api/v1.0/setting?name=ADD_PAYMENT_CARD')).body.data).toEqual({
      name: 'ADD_PAYMENT_CARD',
      settings: { mandatory: false },
    });
    expect((await c.get('/api/v1.0/setting?name=OTHER')).status).toBe(400);
  });

  it('checks referral codes without a session', async () => {
    const answer = await new Client(server().url).call('GET', '/api/v1.0/user/checkIsValidCode?referralCode=NOPE', {
      token: null,
    });
    expect(answer.body.data).toEqual({ isValidCode: false });
  });
});
