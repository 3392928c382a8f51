import {
  type AccountSummary,
  canManageAccount,
  HIDDEN_ACCOUNT_NAME,
  isValidAccountName,
  Messages,
} from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { Caller, CurrentAccount } from '../../http/guards.ts';
import { unseal } from '../../secrets.ts';
import * as settings from './account-settings.store.ts';
import { findSummary } from './accounts.store.ts';
import { newSealedSigningSecret } from './signing-secret.ts';

/** Edit Account Name (spec B §5): the owner only, by the same name rule as the creation finish (spec A §5). */
export async function renameAccount(
  db: Db,
  caller: Caller,
  account: CurrentAccount,
  accountName: string,
): Promise<AccountSummary> {
  // The route's ownerOnly guard refuses first; the rule stays here for any other caller.
  if (!canManageAccount(account.roleName)) throw forbidden(Messages.ownerOnlyRename);
  // The wizard's draft name would hide the account from its own list, as the finish step also refuses.
  if (!isValidAccountName(accountName) || accountName === HIDDEN_ACCOUNT_NAME) {
    throw badRequest(Messages.invalidAccountName);
  }
  await settings.renameAccount(db, account.id, accountName);
  const summary = await findSummary(db, account.id, caller.userId);
  if (!summary) throw notFound(Messages.notAMember);
  return summary;
}

/**
 * The account's webhook signing secret, for any member. Accounts made before secrets were given
 * at creation get one on their first read; of two first reads at once, the first stored wins and
 * both answer it.
 */
export async function readSigningSecret(db: Db, dataKey: Buffer, accountId: string): Promise<string> {
  let sealed = await settings.findSealedSigningSecret(db, accountId);
  if (sealed === undefined) throw notFound(Messages.notAMember);
  if (sealed === null) {
    await settings.setSigningSecretIfMissing(db, accountId, newSealedSigningSecret(dataKey));
    sealed = await settings.findSealedSigningSecret(db, accountId);
    if (!sealed) throw new Error('the signing secret was not stored');
  }
  return unseal(dataKey, sealed);
}
