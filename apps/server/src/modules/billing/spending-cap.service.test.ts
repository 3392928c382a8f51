import { type AccountDetails, type AccountSummary, Messages, type SpendingCapSetting } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';

const SETTINGS = '/api/v1.0/account/updateAccountSettings';
const NONE = { monthlyCapUsd: null, autoPayMonthlyMaxUsd: null };

describe.each(testDatabases)('the spending cap setting on $name', (database) => {
  const server = serverFor(database);

  /** An owner with a new account, and a second user the owner added as a member. */
  async function ownerAndMember() {
    const owner = new Client(server().url);
    await owner.signUp();
    const id = (await owner.post<AccountSummary>('/api/v1.0/account', { accountName: 'capped' })).body.data.id;
    const h = { 'ebs-account-id': id };
    const member = new Client(server().url);
    const { email } = await member.signUp();
    expect((await owner.post('/api/v1.0/account/user', { email }, h)).status).toBe(200);
    await member.get('/api/v1.0/account');
    return { owner, member, h };
  }

  const save = (c: Client, h: Record<string, string>, fields: unknown) =>
    c.post<SpendingCapSetting>(SETTINGS, { settingName: 'spendingCap', fields }, h);
  const shown = async (c: Client, h: Record<string, string>) =>
    (await c.get<AccountDetails>('/api/v1.0/account/details', h)).body.data.setting.spendingCap;

  it('lets the owner set, change one alone and clear the cap and the auto pay limit, shown to every member', async () => {
    const { owner, member, h } = await ownerAndMember();
    expect(await shown(member, h)).toEqual(NONE);

    const set = await save(owner, h, { monthlyCapUsd: '25', autoPayMonthlyMaxUsd: '100.5' });
    expect([set.status, set.body.message]).toEqual([200, Messages.spendingCapSaved]);
    expect(set.body.data).toEqual({ monthlyCapUsd: '25.00', autoPayMonthlyMaxUsd: '100.50' });
    expect(await shown(member, h)).toEqual({ monthlyCapUsd: '25.00', autoPayMonthlyMaxUsd: '100.50' });

    const raised = await save(owner, h, { monthlyCapUsd: '9999999.99' });
    expect(raised.body.data).toEqual({ monthlyCapUsd: '9999999.99', autoPayMonthlyMaxUsd: '100.50' });
    const cleared = await save(owner, h, { autoPayMonthlyMaxUsd: null });
    expect(cleared.body.data).toEqual({ monthlyCapUsd: '9999999.99', autoPayMonthlyMaxUsd: null });
    await save(owner, h, { monthlyCapUsd: null, autoPayMonthlyMaxUsd: '0.01' });
    expect(await shown(owner, h)).toEqual({ monthlyCapUsd: null, autoPayMonthlyMaxUsd: '0.01' });
    // The auto pay form beside it is untouched.
    expect((await owner.get<AccountDetails>('/api/v1.0/account/details', h)).body.data.setting.autoDeposit).toEqual({
      autoDepositEnabled: false,
      minBalance: null,
      autoDepositAmount: null,
    });
  });

  it('refuses a member with 403 and changes nothing', async () => {
    const { owner, member, h } = await ownerAndMember();
    await save(owner, h, { monthlyCapUsd: '10' });
    for (const fields of [{ monthlyCapUsd: '1000' }, { monthlyCapUsd: null }, { autoPayMonthlyMaxUsd: '5' }]) {
      const answer = await save(member, h, fields);
      expect([answer.status, answer.body.message]).toEqual([403, Messages.ownerOnlySpendingCap]);
    }
    expect(await shown(owner, h)).toEqual({ monthlyCapUsd: '10.00', autoPayMonthlyMaxUsd: null });
  });

  it.each<[Record<string, unknown>, string | undefined]>([
    [{ monthlyCapUsd: '0' }, Messages.spendingCapRange],
    [{ monthlyCapUsd: '0.00', autoPayMonthlyMaxUsd: '50' }, Messages.spendingCapRange],
    [{ monthlyCapUsd: '50', autoPayMonthlyMaxUsd: '0.0' }, Messages.autoPayMonthlyMaxRange],
    [{}, Messages.spendingCapRequired],
    // Refused by the contract's form: the message is the validator's.
    [{ monthlyCapUsd: '10000000' }, undefined],
    [{ monthlyCapUsd: '1.005' }, undefined],
    [{ monthlyCapUsd: '-1' }, undefined],
    [{ monthlyCapUsd: '1e3' }, undefined],
    [{ monthlyCapUsd: '25', theme: 'dark' }, undefined],
  ])('refuses %j with 400 and changes nothing', async (fields, message) => {
    const { owner, h } = await ownerAndMember();
    await save(owner, h, { monthlyCapUsd: '30', autoPayMonthlyMaxUsd: '60' });
    const answer = await save(owner, h, fields);
    expect(answer.status).toBe(400);
    if (message) expect(answer.body.message).toBe(message);
    expect(await shown(owner, h)).toEqual({ monthlyCapUsd: '30.00', autoPayMonthlyMaxUsd: '60.00' });
  });
});
