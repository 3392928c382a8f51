import { endpoints, type GasFeeFundingWallet, type TokenForwardingTransaction, type WalletStatus } from '@ebs/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

const { listWallets, listGasWallets, listDestinations, supportedNetworksAndTokens, listTransactions } =
  endpoints.forwarding;

export const forwardingKeys = {
  /** The three wallet lists, refreshed together (spec B §2). */
  lists: (accountId: string) => ['account', accountId, 'forwarding', 'lists'] as const,
  wallets: (accountId: string) => [...forwardingKeys.lists(accountId), 'wallets'] as const,
  gasFeeWallets: (accountId: string) => [...forwardingKeys.lists(accountId), 'gas-fee-wallets'] as const,
  destinations: (accountId: string) => [...forwardingKeys.lists(accountId), 'destinations'] as const,
  networks: (accountId: string) => ['account', accountId, 'forwarding', 'networks'] as const,
  transactions: (accountId: string, filter: TransactionFilter) =>
    ['account', accountId, 'forwarding', 'transactions', filter] as const,
};

/** spec B §7: the wallet list asks for both statuses, as JSON array text. */
export const WALLET_STATUS_IN = JSON.stringify(['ENABLED', 'DISABLED'] satisfies WalletStatus[]);

export const useForwardingWallets = (accountId: string) =>
  useQuery({
    queryKey: forwardingKeys.wallets(accountId),
    queryFn: async () =>
      (await api(listWallets, { accountId, query: { statusIn: WALLET_STATUS_IN } })).tokenForwardingWallets,
    enabled: accountId !== '',
  });

export const fetchGasFeeWallets = async (accountId: string): Promise<GasFeeFundingWallet[]> =>
  (await api(listGasWallets, { accountId })).gasFeeFundingWallets;

export const fetchDestinations = (accountId: string) => api(listDestinations, { accountId });

/** `enabled: false` when the caller already holds the list (handed over in navigation state). */
export const useGasFeeWallets = (accountId: string, enabled = true) =>
  useQuery({
    queryKey: forwardingKeys.gasFeeWallets(accountId),
    queryFn: () => fetchGasFeeWallets(accountId),
    enabled: enabled && accountId !== '',
  });

export const useDestinations = (accountId: string, enabled = true) =>
  useQuery({
    queryKey: forwardingKeys.destinations(accountId),
    queryFn: () => fetchDestinations(accountId),
    enabled: enabled && accountId !== '',
  });

export const useSupportedNetworks = (accountId: string) =>
  useQuery({
    queryKey: forwardingKeys.networks(accountId),
    queryFn: () => api(supportedNetworksAndTokens, { accountId }),
    enabled: accountId !== '',
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Fetches the three wallet lists again, e.g. after a change or on Refresh. */
export function useRefreshLists(accountId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: forwardingKeys.lists(accountId) });
}

/** spec B §5: a search starting with 0x is an address, anything else a wallet id; empty is no filter. */
export type TransactionFilter = { address: string } | { tokenForwardingWalletId: string } | Record<string, never>;

export function transactionFilter(search: string): TransactionFilter {
  const value = search.trim();
  if (!value) return {};
  return value.startsWith('0x') ? { address: value } : { tokenForwardingWalletId: value };
}

/** New forwards and webhook results show up while the page is open. */
const TRANSACTIONS_REFRESH_MS = 15_000;
/** While a forward is under way (funding gas, sending, confirming), its progress shows this often. */
const IN_PROGRESS_REFRESH_MS = 3_000;

const settled = (transaction: TokenForwardingTransaction) =>
  transaction.status === 'COMPLETED' || transaction.status === 'FAILED';

/** spec B §8: a failed fetch is only logged, and the list is empty. */
export const useForwardingTransactions = (accountId: string, filter: TransactionFilter) =>
  useQuery({
    queryKey: forwardingKeys.transactions(accountId, filter),
    queryFn: async (): Promise<TokenForwardingTransaction[]> => {
      try {
        const list = await api(listTransactions, { accountId, query: { ...filter } });
        return list.tokenForwardingTransactions;
      } catch (error) {
        console.error('Failed to fetch the token forwarding transactions', error);
        return [];
      }
    },
    enabled: accountId !== '',
    refetchInterval: (query) =>
      query.state.data?.every(settled) === false ? IN_PROGRESS_REFRESH_MS : TRANSACTIONS_REFRESH_MS,
  });
