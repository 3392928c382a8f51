import {
  type CreateDestinationBody,
  type CreateGasFeeWalletBody,
  type CreateTokenForwardingWalletBody,
  type DestinationWallet,
  type EndpointQuery,
  endpoints,
  ForwardingMessages,
  type GasFeeFundingWallet,
  type TestWebhookBody,
  type TokenForwardingWallet,
  type WalletStatus,
} from '@ebs/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { toast } from '../../lib/toast';
import { forwardingKeys } from './forwarding-queries';

const F = endpoints.forwarding;

/** A wallet of any of the three kinds, as a row click selects it. */
export type SelectedWallet =
  | { kind: 'forwarding'; wallet: TokenForwardingWallet }
  | { kind: 'gasFee'; wallet: GasFeeFundingWallet }
  | { kind: 'destination'; wallet: DestinationWallet };

/** A change to the account's wallets: its success toast, then all three lists are fetched again. */
function useWalletChange<V, R>(accountId: string, call: (variables: V) => Promise<R>, successText: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      toast.success(successText);
      await queryClient.invalidateQueries({ queryKey: forwardingKeys.lists(accountId) });
    },
  });
}

/** The wallets that have a name: gas fee funding and destination wallets. */
export type NamedWallet = Extract<SelectedWallet, { kind: 'gasFee' | 'destination' }>;
export type RenameRequest = NamedWallet & { name: string };

export const useRenameWallet = (accountId: string) =>
  useWalletChange(
    accountId,
    (request: RenameRequest): Promise<NamedWallet['wallet']> =>
      request.kind === 'gasFee'
        ? api(F.renameGasWallet, { accountId, body: { id: request.wallet.id, name: request.name } })
        : api(F.renameDestination, {
            accountId,
            body: {
              name: request.name,
              destinationPublicAddress: request.wallet.destinationPublicAddress,
              network: request.wallet.network,
            },
          }),
    ForwardingMessages.walletNameUpdated,
  );

export const useDeleteWallet = (accountId: string) =>
  useWalletChange(
    accountId,
    (selected: SelectedWallet) => {
      switch (selected.kind) {
        case 'forwarding':
          return api(F.deleteWallet, { accountId, params: { walletId: selected.wallet.id } });
        case 'gasFee':
          return api(F.deleteGasWallet, { accountId, params: { walletId: selected.wallet.id } });
        case 'destination':
          return api(F.deleteDestination, {
            accountId,
            body: {
              network: selected.wallet.network,
              destinationPublicAddress: selected.wallet.destinationPublicAddress,
            },
          });
      }
    },
    ForwardingMessages.walletDeleted,
  );

export const useRefreshBalance = (accountId: string) =>
  useWalletChange(
    accountId,
    (wallet: GasFeeFundingWallet) => api(F.refreshGasBalance, { accountId, body: { id: wallet.id } }),
    ForwardingMessages.balanceRefreshed,
  );

export const useEnableWallet = (accountId: string) =>
  useWalletChange(
    accountId,
    (wallet: TokenForwardingWallet) =>
      api(F.setWalletStatus, {
        accountId,
        body: { id: wallet.id, newStatus: 'ENABLED' satisfies WalletStatus },
      }),
    ForwardingMessages.walletEnabled,
  );

/** spec B §4: the reason is optional free text; an empty one is sent as null. */
export const useDisableWallet = (accountId: string) =>
  useWalletChange(
    accountId,
    ({ wallet, reason }: { wallet: TokenForwardingWallet; reason: string }) =>
      api(F.setWalletStatus, {
        accountId,
        body: { id: wallet.id, reason: reason.trim() || null, newStatus: 'DISABLED' satisfies WalletStatus },
      }),
    ForwardingMessages.walletDisabled,
  );

export type CreateRequest =
  | { walletType: 'destinationWallet'; body: CreateDestinationBody }
  | { walletType: 'gasFeeFundingWallet'; body: CreateGasFeeWalletBody }
  | { walletType: 'tokenForwardingWallet'; body: CreateTokenForwardingWalletBody };

/**
 * spec B §7: a forwarding wallet with a webhook carries the account signing secret in its
 * webhookSetting, fetched just before the create call (the server signs with its own copy).
 */
async function createWallet(accountId: string, request: CreateRequest): Promise<unknown> {
  switch (request.walletType) {
    case 'destinationWallet':
      return api(F.createDestination, { accountId, body: request.body });
    case 'gasFeeFundingWallet':
      return api(F.createGasWallet, { accountId, body: request.body });
    case 'tokenForwardingWallet': {
      const { webhookSetting } = request.body;
      if (!webhookSetting) return api(F.createWallet, { accountId, body: request.body });
      const { secret } = await api(endpoints.accounts.signingSecret, { accountId });
      return api(F.createWallet, {
        accountId,
        body: { ...request.body, webhookSetting: { ...webhookSetting, secret } },
      });
    }
  }
}

export const useCreateWallet = (accountId: string) =>
  useWalletChange(
    accountId,
    (request: CreateRequest) => createWallet(accountId, request),
    ForwardingMessages.walletCreated,
  );

export const useSmartContractInfo = (accountId: string) =>
  useMutation({
    mutationFn: (query: EndpointQuery<typeof F.contractInfo>) => api(F.contractInfo, { accountId, query }),
  });

export const useTestWebhook = (accountId: string) =>
  useMutation({
    mutationFn: (body: TestWebhookBody) => api(F.testWebhook, { accountId, body }),
  });
