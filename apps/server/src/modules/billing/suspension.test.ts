import type { AccountDetails, AccountList } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { ownerWithCard } from '../../testing/cards.ts';
import type { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { insertTransaction } from '../ledger/ledger.test-kit.ts';

describe.each(testDatabases)('suspension on $name', (database) => {
  const server = serverFor(database);

  /** What the console shows for the account: its details and its row in My Accounts. */
  const shown = async (c: Client, accountId: string) => {
    const details = (await c.get<AccountDetails>('/api/v1.0/account/details', { 'ebs-account-id': accountId })).body
      .data;
    const row = (
      await c.get<AccountList>('/api/v1.0/account?limit=100&offset=0', { 'ebs-account-id': '' })
    ).body.data.accounts.find((a) => a.id === accountId);
    expect(row?.status).toBe(details.status);
    return {
      status: details.status,
      enabled: details.isBillingApiEnabled,
      available: details.balance - details.amountPending,
    };
  };
  const deposit = (c: Client, h: Record<string, string>, cardId: string, depositAmount: number) =>
    c.post('/api/v1.0/payment/card/deposit', { cardId, depositAmount }, h);
  /** Usage as the gateway will bill it: a withdrawal, pending until it completes. */
  const usage = (accountId: string, amount: string, status: 'PENDING' | 'COMPLETED') =>
    server()
      .db.insertInto('account_transactions')
      .values({
        account_id: accountId,
        type: 'WITHDRAW_RESOURCE_USAGE',
        amount,
        status,
      })
      .execute();
  const sweep = () => server().deps.jobs.billing?.();

  it('starts a new account suspended and enables it with the deposit that gives it credit', async () => {
    const { c, accountId, h, cardId } = await ownerWithCard(server().url);
    expect(await shown(c, accountId)).toEqual({ status: 'SUSPENDED', enabled: false, available: 0 });
    expect((await deposit(c, h, cardId, 5)).status).toBe(200);
    expect(await shown(c, accountId)).toEqual({ status: 'ACTIVE', enabled: true, available: 5 });
  });

  it('suspends at exactly 0 available, counting pending withdrawals, and re-enables above 0', async () => {
    const { c, accountId, h, cardId } = await ownerWithCard(server().url);
    await deposit(c, h, cardId, 5);
    await usage(accountId, '-2', 'COMPLETED');
    await usage(accountId, '-3', 'PENDING');
    expect(await sweep()).toMatchObject({ changed: 1 });
    expect(await shown(c, accountId)).toEqual({ status: 'SUSPENDED', enabled: false, available: 0 });

    expect((await deposit(c, h, cardId, 1)).status).toBe(200);
    expect(await shown(c, accountId)).toEqual({ status: 'ACTIVE', enabled: true, available: 1 });
  });

  it('suspends an account whose usage takes it below 0 on the next ledger write or sweep', async () => {
    const { c, accountId, h, cardId } = await ownerWithCard(server().url);
    await deposit(c, h, cardId, 1);
    await insertTransaction(server().db, {
      accountId,
      type: 'WITHDRAW_RESOURCE_USAGE',
      amount: '-1.000001',
      status: 'COMPLETED',
    });
    expect(await shown(c, accountId)).toEqual({ status: 'SUSPENDED', enabled: false, available: -0.000001 });
    expect(await sweep()).toMatchObject({ changed: 0 });
  });

  it('enables the account with the welcome credit, and leaves others untouched', async () => {
    const { c, accountId } = await ownerWithCard(server().url);
    const other = await ownerWithCard(server().url);
    await c.post(
      '/api/v1.0/account/redeemBonus',
      { accountId, type: 'WELCOME_CREDIT' },
      { 'ebs-account-id': accountId },
    );
    expect((await shown(c, accountId)).status).toBe('ACTIVE');
    expect((await shown(other.c, other.accountId)).status).toBe('SUSPENDED');
  });

  it('keeps a refused deposit from enabling the account', async () => {
    const { c, accountId, h, cardId } = await ownerWithCard(server().url, '4000000000009995');
    expect((await deposit(c, h, cardId, 50)).status).toBe(402);
    expect(await shown(c, accountId)).toEqual({ status: 'SUSPENDED', enabled: false, available: 0 });
  });
});
