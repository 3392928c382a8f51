import { quotedName } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { findAccountOwner } from '../accounts/index.ts';
import { findUserEmail } from '../identity/index.ts';
import { claimLowBalanceNotice, gasWalletById } from './wallets.store.ts';

/** Who is told of a gas wallet's low balance: its account's owner, with the wallet and account names. */
interface LowBalanceRecipient {
  email: string;
  accountName: string;
  walletName: string;
  address: string;
}

/** The owner of the gas wallet's account, with what the e-mail names; undefined for an unknown wallet. */
async function gasWalletOwner(db: Db, gasWalletId: string): Promise<LowBalanceRecipient | undefined> {
  const wallet = await gasWalletById(db, gasWalletId);
  if (!wallet) return undefined;
  const account = await findAccountOwner(db, wallet.account_id);
  if (!account) return undefined;
  const email = await findUserEmail(db, account.ownerId);
  if (email === undefined) return undefined;
  return { email, accountName: account.name, walletName: wallet.name, address: wallet.address };
}

/** E-mails the account owner once until the gas fee funding wallet holds enough again. */
export async function tellLowBalance(
  deps: { db: Db; mailer: Mailer; productName: string },
  gasWalletId: string,
  network: string,
  needed: string,
): Promise<void> {
  if (!(await claimLowBalanceNotice(deps.db, gasWalletId))) return;
  const owner = await gasWalletOwner(deps.db, gasWalletId);
  if (!owner) return;
  await deps.mailer.send({
    to: owner.email,
    subject: `Your ${deps.productName} gas fee funding wallet needs funds`,
    text: `The gas fee funding wallet ${quotedName(owner.walletName)} (${owner.address}) of the account ${quotedName(owner.accountName)} cannot pay the network fee of the next token forward on ${network}: it needs at least ${needed}. Send native tokens to ${owner.address}; waiting forwards continue by themselves once it is funded.`,
  });
}
