import { Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { ownerWithCard } from '../../testing/cards.ts';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';

describe.each(testDatabases)('auto pay settings on $name', (database) => {
  const server = serverFor(database);

  const save = (c: Client, h: Record<string, string>, fields: Record<string, unknown>, settingName = 'autoDeposit') =>
    c.post<{ autoDepositEnabled: boolean; minBalance: number | null; autoDepositAmount: number | null }>(
      '/api/v1.0/account/updateAccountSettings',
      { settingName, fields },
      h,
    );
  const stored = async (c: Client, h: Record<string, string>) =>
    (await c.get<{ setting: { autoDeposit: unknown } }>('/api/v1.0/account/details', h)).body.data.setting.autoDeposit;

  it('turns auto pay on with the default threshold and amount, saves both, and turns it off', async () => {
    const o = await ownerWithCard(server().url);
    const on = await save(o.c, o.h, { autoDepositEnabled: true });
    expect([on.status, on.body.message]).toEqual([200, 'Thanks for enabling auto pay.']);
    expect(on.body.data).toEqual({ autoDepositEnabled: true, minBalance: 1, autoDepositAmount: 1 });
    const saved = await save(o.c, o.h, { minBalance: 20, autoDepositAmount: 50 });
    expect([saved.status, saved.body.message]).toEqual([200, 'Your auto pay setting has been saved.']);
    expect(await stored(o.c, o.h)).toEqual({ autoDepositEnabled: true, minBalance: 20, autoDepositAmount: 50 });
    const off = await save(o.c, o.h, { autoDepositEnabled: false });
    expect([off.status, off.body.message]).toEqual([200, 'Your auto pay has been turned off.']);
    expect(await stored(o.c, o.h)).toEqual({ autoDepositEnabled: false, minBalance: 20, autoDepositAmount: 50 });
  });

  it('refuses to turn auto pay on without a default card', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const accountId = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'no card' })).body.data.id;
    const h = { 'ebs-account-id': accountId };
    const answer = await save(c, h, { autoDepositEnabled: true });
    expect([answer.status, answer.body.message]).toEqual([400, Messages.setDefaultCard]);
    expect(await stored(c, h)).toEqual({ autoDepositEnabled: false, minBalance: null, autoDepositAmount: null });
  });

  it.each<[Record<string, unknown>, string]>([
    [{ minBalance: null, autoDepositAmount: 10 }, 'Deposit amount is required.'],
    [{ minBalance: 5, autoDepositAmount: 0 }, 'Deposit amount is required.'],
    [{ minBalance: 100000, autoDepositAmount: 10 }, 'The auto pay threshold must be between 1 and 99999 USD.'],
    [{ minBalance: 0.5, autoDepositAmount: 10 }, 'The auto pay threshold must be between 1 and 99999 USD.'],
    [{ minBalance: 5, autoDepositAmount: 10.5 }, 'Deposit amount must be a whole number of USD.'],
    [{ minBalance: 5, autoDepositAmount: 100000 }, 'The maximum deposit is 99999 USD.'],
    [{ minBalance: 5, autoDepositAmount: -3 }, 'The minimum deposit is 1 USD.'],
    [{ minBalance: 5 }, 'Deposit amount is required.'],
    [{}, 'Deposit amount is required.'],
    [{ autoDepositEnabled: 'yes' }, 'body.fields.autoDepositEnabled must be boolean'],
  ])('refuses %j and changes nothing', async (fields, message) => {
    const o = await ownerWithCard(server().url);
    const answer = await save(o.c, o.h, fields);
    expect([answer.status, answer.body.message]).toEqual([400, message]);
    expect(await stored(o.c, o.h)).toEqual({ autoDepositEnabled: false, minBalance: null, autoDepositAmount: null });
  });

  it('refuses another setting name', async () => {
    const o = await ownerWithCard(server().url);
    const answer = await save(o.c, o.h, { autoDepositEnabled: true }, 'theme');
    expect([answer.status, answer.body.message]).toEqual([400, 'body.settingName must be equal to constant']);
  });
});
