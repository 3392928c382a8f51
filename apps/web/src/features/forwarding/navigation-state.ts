import type { DestinationWallet, GasFeeFundingWallet } from '@ebs/contract';

/** spec B §2: the wallet list hands the lists it has loaded to the create page. */
export interface CreateWalletState {
  gasFeeFundingWallets: GasFeeFundingWallet[];
  destinationWallets: DestinationWallet[];
}

/** spec B §2: View Transactions opens the transactions page searching for the wallet. */
export interface TransactionsState {
  walletId: string;
}

const record = (state: unknown): Record<string, unknown> =>
  state && typeof state === 'object' ? (state as Record<string, unknown>) : {};

/** The handed-over lists, or undefined when the page was opened directly (or the state is not ours). */
export function readCreateWalletState(state: unknown): Partial<CreateWalletState> {
  const { gasFeeFundingWallets, destinationWallets } = record(state);
  return {
    gasFeeFundingWallets: Array.isArray(gasFeeFundingWallets)
      ? (gasFeeFundingWallets as GasFeeFundingWallet[])
      : undefined,
    destinationWallets: Array.isArray(destinationWallets) ? (destinationWallets as DestinationWallet[]) : undefined,
  };
}

export function readTransactionsState(state: unknown): string {
  const { walletId } = record(state);
  return typeof walletId === 'string' ? walletId : '';
}

/** The wallet list's tabs; a wallet just created opens the list on its kind's tab. */
export const WALLET_TABS = ['tokenForwardingWallets', 'gasFeeFundingWallets', 'destinationWallets'] as const;
export type WalletTab = (typeof WALLET_TABS)[number];

export interface WalletListState {
  tab: WalletTab;
}

export function readWalletListState(state: unknown): WalletTab {
  const { tab } = record(state);
  return WALLET_TABS.find((known) => known === tab) ?? 'tokenForwardingWallets';
}
