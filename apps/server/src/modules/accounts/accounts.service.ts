import { type AccountSummary, isValidAccountName, MAX_ACCOUNTS_PER_USER, Messages, OWNER_ROLE } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import * as store from './accounts.store.ts';

/** Creates an account owned by its creator; a user owns at most 10 (spec A §5). */
export async function createAccount(
  db: Db,
  userId: string,
  input: { accountName: string; customerId?: string },
): Promise<AccountSummary> {
  if (!isValidAccountName(input.accountName)) throw badRequest(Messages.invalidAccountName);
  return db.transaction().execute(async (trx) => {
    await store.lockUser(trx, userId);
    if ((await store.countOwnedAccounts(trx, userId)) >= MAX_ACCOUNTS_PER_USER) {
      throw badRequest(Messages.accountLimit);
    }
    return store.insertAccount(trx, {
      name: input.accountName,
      // The card provider's customer is created by the server with the first setup intent; a
      // customer id sent by the client is never trusted (it could name another account's customer).
      customerId: null,
      ownerId: userId,
      roleName: OWNER_ROLE,
    });
  });
}
