import { badRequest, canManageAccount, forbidden, Messages, WELCOME_CREDIT_USD } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import type { CurrentAccount } from '../../http/guards.ts';
import { markWelcomeCreditRedeemed } from '../identity/index.ts';
import { insertTransaction } from '../ledger/index.ts';

/**
 * Posts the 10 USD welcome credit to an account its owner redeems it for, once per user: the
 * user's flag and the ledger row change in one database transaction, and the row's idempotency key
 * (unique) is the user, so neither a race nor a retry, on any process, can post it twice.
 */
export async function redeemWelcomeCredit(db: Db, userId: string, account: CurrentAccount): Promise<string> {
  // The route's ownerOnly guard refuses first; the rule stays here for any other caller.
  if (!canManageAccount(account.roleName)) throw forbidden(Messages.ownerOnlyWelcomeCredit);
  return db.transaction().execute(async (trx) => {
    const transactionId = await claimWelcomeCredit(trx, userId, account.id);
    if (!transactionId) throw badRequest(Messages.welcomeCreditRedeemed);
    return transactionId;
  });
}

/** The same inside the caller's transaction; undefined when the user has redeemed it already. */
export async function claimWelcomeCredit(trx: Db, userId: string, accountId: string): Promise<string | undefined> {
  if (!(await markWelcomeCreditRedeemed(trx, userId))) return undefined;
  return insertTransaction(trx, {
    accountId,
    type: 'WELCOME_CREDIT',
    amount: String(WELCOME_CREDIT_USD),
    status: 'COMPLETED',
    idempotencyKey: `welcome-credit:${userId}`,
  });
}
