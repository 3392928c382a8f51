import { isNetwork } from '@ebs/contract';
import { formatUnits, parseUnits } from 'viem';
import type { Db } from '../../db/database.ts';
import type { ForwardingChains } from './chain.ts';
import { enabledWalletsPage, networksWithEnabledWallets, openForward } from './forwards.store.ts';
import { setWalletBalances } from './wallets.store.ts';

/** The scanner reads this many wallets from the database at a time; the chain reads go in bulk (chain.ts). */
const PAGE = 1000;

export interface ScanResult {
  wallets: number;
  opened: number;
  unreadable: number;
}

/**
 * Reads the balance of every enabled forwarding wallet, network by network, many per call,
 * records it, and opens a forward for each wallet at or above its minimum (never for a zero
 * balance, nor for a wallet whose previous forward is still open). Disabled and deleted wallets
 * are not read.
 */
export async function scanWallets(db: Db, chains: ForwardingChains): Promise<ScanResult> {
  const result: ScanResult = { wallets: 0, opened: 0, unreadable: 0 };
  for (const network of await networksWithEnabledWallets(db)) {
    if (!isNetwork(network)) continue;
    const chain = chains.get(network);
    let after: string | null = null;
    for (;;) {
      const page = await enabledWalletsPage(db, network, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]?.id ?? null;
      const idle = page.filter((w) => !w.busy);
      result.wallets += idle.length;
      // One batch per token contract (null: the native token).
      const groups = new Map<string | null, typeof idle>();
      for (const wallet of idle) {
        const key = wallet.smart_contract_address?.toLowerCase() ?? null;
        groups.set(key, [...(groups.get(key) ?? []), wallet]);
      }
      const read: Array<{ id: string; balance: string }> = [];
      for (const [contract, wallets] of groups) {
        const balances = await chain.balances(
          wallets.map((w) => w.address),
          contract,
        );
        for (const [i, wallet] of wallets.entries()) {
          const balance = balances[i];
          if (balance === undefined) {
            result.unreadable += 1;
            continue;
          }
          const decimals = contract ? wallet.token_decimals : 18;
          const text = formatUnits(balance, decimals);
          read.push({ id: wallet.id, balance: text });
          if (balance === 0n || balance < parseUnits(wallet.minimum, decimals)) continue;
          const opened = await openForward(db, {
            accountId: wallet.account_id,
            walletId: wallet.id,
            network,
            token: wallet.token,
            smartContractAddress: wallet.smart_contract_address,
            fromAddress: wallet.address,
            toAddress: wallet.destination_address,
            amount: text,
            originalBalance: text,
          });
          if (opened) result.opened += 1;
        }
      }
      await setWalletBalances(db, read);
      if (page.length < PAGE) break;
    }
  }
  return result;
}
