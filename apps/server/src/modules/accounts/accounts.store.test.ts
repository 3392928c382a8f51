import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { insertUser } from '../identity/identity.test-kit.ts';
import * as store from './accounts.store.ts';

describe.each(testDatabases)('accounts store on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let n = 0;
  const newUser = () =>
    insertUser(db, {
      email: `acc-${++n}@example.com`,
      givenName: 'A',
      familyName: 'B',
      passwordHash: 'h',
      referralCode: null,
    });

  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close?.());

  it('lists a member’s accounts oldest first, paged, with the role in each', async () => {
    const owner = await newUser();
    const names = ['first', 'second', 'third'];
    for (const name of names)
      await store.insertAccount(db, { name, customerId: null, ownerId: owner, roleName: 'OWNER' });
    const page = await store.listAccountsOfUser(db, owner, { limit: 2, offset: 0 });
    expect(page.total).toBe(3);
    expect(page.accounts.map((a) => [a.name, a.roleName, a.status])).toEqual([
      ['first', 'OWNER', 'SUSPENDED'],
      ['second', 'OWNER', 'SUSPENDED'],
    ]);
  });

  it('counts only the accounts a user owns', async () => {
    const owner = await newUser();
    const member = await newUser();
    const account = await store.insertAccount(db, {
      name: 'shared',
      customerId: 'cus_1',
      ownerId: owner,
      roleName: 'OWNER',
    });
    await db
      .insertInto('account_members')
      .values({ account_id: account.id, user_id: member, role_name: 'MEMBER' })
      .execute();
    expect(await store.countOwnedAccounts(db, owner)).toBe(1);
    expect(await store.countOwnedAccounts(db, member)).toBe(0);
    expect((await store.listAccountsOfUser(db, member, { limit: 10, offset: 0 })).accounts[0]?.roleName).toBe('MEMBER');
  });

  it('sums the ledger in decimal: balance from completed rows, pending withdrawals apart', async () => {
    const owner = await newUser();
    const { id } = await store.insertAccount(db, {
      name: 'ledger',
      customerId: null,
      ownerId: owner,
      roleName: 'OWNER',
    });
    // 0.1 + 0.2 in binary floats is 0.30000000000000004; the database sums decimals exactly.
    await db
      .insertInto('account_transactions')
      .values([
        { account_id: id, type: 'DEPOSIT_ONE_TIME', amount: '0.1', status: 'COMPLETED' },
        { account_id: id, type: 'DEPOSIT_ONE_TIME', amount: '0.2', status: 'COMPLETED' },
        { account_id: id, type: 'DEPOSIT_AUTO', amount: '5', status: 'PENDING' },
        { account_id: id, type: 'WITHDRAW_RESOURCE_USAGE', amount: '-0.7', status: 'PENDING' },
        { account_id: id, type: 'DEPOSIT_AUTO', amount: '7', status: 'FAILED' },
      ])
      .execute();
    const details = await store.findAccountDetails(db, id, owner);
    // The pending deposit adds nothing yet; the pending withdrawal is pending.
    expect(details).toMatchObject({ balance: 0.3, amountPending: 0.7 });
  });

  it('gives no details to a user who is not a member', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const { id } = await store.insertAccount(db, {
      name: 'private',
      customerId: null,
      ownerId: owner,
      roleName: 'OWNER',
    });
    expect(await store.findAccountDetails(db, id, stranger)).toBeUndefined();
  });

  it('switches a feature on and off per account', async () => {
    const owner = await newUser();
    const a = await store.insertAccount(db, { name: 'fa', customerId: null, ownerId: owner, roleName: 'OWNER' });
    const b = await store.insertAccount(db, { name: 'fb', customerId: null, ownerId: owner, roleName: 'OWNER' });
    await store.setFeature(db, a.id, 'TOKEN_FORWARDING', true);
    expect(await store.isFeatureEnabled(db, a.id, 'TOKEN_FORWARDING')).toBe(true);
    expect(await store.isFeatureEnabled(db, b.id, 'TOKEN_FORWARDING')).toBe(false);
    await store.setFeature(db, a.id, 'TOKEN_FORWARDING', false);
    expect(await store.isFeatureEnabled(db, a.id, 'TOKEN_FORWARDING')).toBe(false);
  });
});
