import { type Ambassador, Messages, type UserInfo } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { addCard } from '../../testing/cards.ts';
import { Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { runAutoPay } from '../billing/auto-pay.job.ts';
import { insertTransaction } from '../ledger/ledger.test-kit.ts';
import { grantAmbassador, rewardDeposits } from './ambassador.store.ts';

describe.each(testDatabases)('the ambassador program on $name', (database) => {
  const server = serverFor(database);

  const ambassador = async (rate: string) => {
    const c = new Client(server().url);
    const { email } = await c.signUp();
    const granted = await grantAmbassador(server().db, email, rate);
    if (!granted) throw new Error('not granted');
    const card = async () => c.get<Ambassador>('/api/v1.0/user/ambassador');
    return { c, email, code: granted.code, card };
  };

  /** A user who signs up with a referral code (or none), confirms, and opens an account with a card. */
  const referred = async (referralCode?: string) => {
    const c = new Client(server().url);
    const email = uniqueEmail();
    const signUp = await c.post('/auth/sign-up', {
      email,
      password: 'correct horse 1',
      givenName: 'Ref',
      familyName: 'Erred',
      ...(referralCode ? { referralCode } : {}),
    });
    expect(signUp.status).toBe(200);
    c.idToken = (
      await c.post<{ idToken: string }>('/auth/confirm-sign-up', { email, code: await c.mailedCode(email) })
    ).body.data.idToken;
    const accountId = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'referred' })).body.data.id;
    const h = { 'ebs-account-id': accountId };
    const cardId = await addCard(c, accountId);
    const deposit = (amount: number, key: string) =>
      c.post<{ transactionId: string }>(
        '/api/v1.0/payment/card/deposit',
        { cardId, depositAmount: amount },
        {
          ...h,
          'idempotency-key': key,
        },
      );
    return { c, email, accountId, h, deposit };
  };

  const rewards = async (code: string) =>
    (
      await sql<{ amount: string; deposit: string }>`select r.amount::text as amount, r.deposit_amount::text as deposit
        from ambassador_rewards r join ambassadors a on a.user_id = r.ambassador_user_id
        where a.code = ${code} order by r.created_at`.execute(server().db)
    ).rows;

  it('lists a user who signed up with the code, and credits rate × deposit exactly once', async () => {
    const a = await ambassador('0.1');
    expect((await a.card()).body.data).toEqual({ balance: 0, code: a.code, rewardRate: 0.1, linkedUsers: [] });

    // Typed in lower case with spaces around, as people do.
    const check = await new Client(server().url).get<{ isValidCode: boolean }>(
      `/api/v1.0/user/checkIsValidCode?referralCode=${encodeURIComponent(` ${a.code.toLowerCase()} `)}`,
    );
    expect(check.body.data.isValidCode).toBe(true);
    const user = await referred(` ${a.code.toLowerCase()} `);
    expect((await a.card()).body.data.linkedUsers).toEqual([{ email: user.email }]);

    const first = await user.deposit(100, 'ambassador-deposit-1');
    expect(first.status).toBe(200);
    expect((await a.card()).body.data.balance).toBe(10);
    // The same request again, and the sweep job: still one reward.
    expect((await user.deposit(100, 'ambassador-deposit-1')).body.data.transactionId).toBe(
      first.body.data.transactionId,
    );
    expect(await rewardDeposits(server().db)).toBe(0);
    expect(await rewards(a.code)).toEqual([{ amount: '10.000000', deposit: '100.000000' }]);

    // The user info carries the same card (spec B §3): the menu entry reads it.
    const info = (await a.c.get<UserInfo>('/api/v1.0/user')).body.data;
    expect(info.ambassador).toEqual({
      balance: 10,
      code: a.code,
      rewardRate: 0.1,
      linkedUsers: [{ email: user.email }],
    });
  });

  it('rewards auto pay deposits too, at the rate of the day, with decimal precision', async () => {
    const a = await ambassador('0.0725');
    const user = await referred(a.code);
    await user.c.post(
      '/api/v1.0/account/updateAccountSettings',
      { settingName: 'autoDeposit', fields: { autoDepositEnabled: true } },
      user.h,
    );
    await user.c.post(
      '/api/v1.0/account/updateAccountSettings',
      { settingName: 'autoDeposit', fields: { minBalance: 20, autoDepositAmount: 33 } },
      user.h,
    );
    await runAutoPay({
      db: server().db,
      deposits: server().deps.deposits,
      mailer: server().deps.mailer,
      productName: 'EBS Console',
    });
    // 33 × 0.0725 = 2.3925, kept to the cent's fraction without binary rounding.
    expect(await rewards(a.code)).toEqual([{ amount: '2.392500', deposit: '33.000000' }]);
    expect((await a.card()).body.data.balance).toBe(2.3925);

    await grantAmbassador(server().db, a.email, '0.2');
    await user.deposit(7, 'ambassador-deposit-2');
    expect((await rewards(a.code)).map((r) => r.amount)).toEqual(['2.392500', '1.400000']);
    expect((await a.card()).body.data).toMatchObject({ balance: 3.7925, rewardRate: 0.2, code: a.code });
  });

  it('rewards nothing for declined cards, welcome credits, manual deposits, or users without the code', async () => {
    const a = await ambassador('0.1');
    const user = await referred(a.code);
    const stranger = await referred();
    await stranger.deposit(50, 'stranger-deposit');
    await insertTransaction(server().db, {
      accountId: user.accountId,
      type: 'ADMIN_MANUAL_DEPOSIT',
      amount: '40',
      status: 'COMPLETED',
    });
    await insertTransaction(server().db, {
      accountId: user.accountId,
      type: 'WELCOME_CREDIT',
      amount: '5',
      status: 'COMPLETED',
    });
    await insertTransaction(server().db, {
      accountId: user.accountId,
      type: 'DEPOSIT_ONE_TIME',
      amount: '9',
      status: 'FAILED',
    });
    expect(await rewardDeposits(server().db)).toBe(0);
    expect((await a.card()).body.data).toMatchObject({ balance: 0, linkedUsers: [{ email: user.email }] });
  });

  it('catches a deposit settled without its reward (a stopped process) in the ambassadors job', async () => {
    const a = await ambassador('0.5');
    const user = await referred(a.code);
    const id = await insertTransaction(server().db, {
      accountId: user.accountId,
      type: 'DEPOSIT_ONE_TIME',
      amount: '12.5',
      status: 'COMPLETED',
    });
    expect((await a.card()).body.data.balance).toBe(0);
    expect(await server().deps.jobs.ambassadors?.()).toBe(1);
    expect(await rewardDeposits(server().db, id)).toBe(0);
    expect((await a.card()).body.data.balance).toBe(6.25);
  });

  it('answers a user who is not an ambassador with a clear 404, and refuses a caller without a session', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const answer = await c.get('/api/v1.0/user/ambassador');
    expect([answer.status, answer.body.message]).toEqual([404, Messages.notAnAmbassador]);
    expect((await c.get<UserInfo>('/api/v1.0/user')).body.data.ambassador).toBeNull();
    const anonymous = await c.call('GET', '/api/v1.0/user/ambassador', { token: null });
    expect(anonymous.status).toBe(401);
  });

  it('refuses a sign-up with a code that does not exist, creating no user', async () => {
    const c = new Client(server().url);
    const email = uniqueEmail();
    const answer = await c.post('/auth/sign-up', {
      email,
      password: 'correct horse 1',
      givenName: 'No',
      familyName: 'Code',
      referralCode: 'NOPE1234',
    });
    expect([answer.status, answer.body.message]).toEqual([400, Messages.referralCodeDoesNotExist]);
    const users = await server().db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toEqual([]);
  });
});
