import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { claimLowBalanceNotice } from './wallets.store.ts';

/** E-mails the account owner once until the gas fee funding wallet holds enough again. */
export async function tellLowBalance(
  deps: { db: Db; mailer: Mailer; productName: string },
  gasWalletId: string,
  network: string,
  needed: string,
): Promise<void> {
  if (!(await claimLowBalanceNotice(deps.db, gasWalletId))) return;
  const owner = await deps.db
    .selectFrom('accounts as a')
    .innerJoin('users as u', 'u.id', 'a.created_by')
    .innerJoin('gas_fee_funding_wallets as g', 'g.account_id', 'a.id')
    .select(['u.email', 'a.name', 'g.name as wallet_name', 'g.address'])
    .where('g.id', '=', gasWalletId)
    .executeTakeFirst();
  if (!owner) return;
  await deps.mailer.send({
    to: owner.email,
    subject: `Your ${deps.productName} gas fee funding wallet needs funds`,
    text: `The gas fee funding wallet "${owner.wallet_name}" (${owner.address}) of the account "${owner.name}" cannot pay the network fee of the next token forward on ${network}: it needs at least ${needed}. Send native tokens to ${owner.address}; waiting forwards continue by themselves once it is funded.`,
  });
}
