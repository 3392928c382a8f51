import type { Db } from '../db/database.ts';
import { insertAccount } from '../modules/accounts/accounts.test-kit.ts';
import { insertUser } from '../modules/identity/identity.test-kit.ts';

/** An account and its owner written straight into the database, for a store's tests: its id. */
export async function insertOwnedAccount(db: Db, name: string): Promise<string> {
  const owner = await insertUser(db, {
    email: `${name}@example.com`,
    givenName: 'A',
    familyName: 'B',
    passwordHash: 'h',
    referralCode: null,
  });
  return (await insertAccount(db, { name, customerId: null, ownerId: owner, roleName: 'OWNER' })).id;
}
