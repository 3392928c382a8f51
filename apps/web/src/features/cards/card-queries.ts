import { endpoints, Messages } from '@ebs/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { paymentCardKeys } from '../../lib/payment-cards';
import { toast } from '../../lib/toast';
import { loadAccount } from '../../session/load-account';

export interface CardExpiryChange {
  cardId: string;
  expireMonth: number;
  expireYear: number;
}

/**
 * A change to the account's cards: on success it shows `successText`, refreshes the card list and
 * reloads the current account so that the session's cards stay right.
 */
function useCardChange<V>(accountId: string, call: (variables: V) => Promise<unknown>, successText: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      toast.success(successText);
      // The change is made: a failed reload is only logged, so it cannot read as a failed change.
      loadAccount(accountId).catch((error: unknown) => console.error('Failed to reload the account', error));
      await queryClient.invalidateQueries({ queryKey: paymentCardKeys.list(accountId) });
    },
  });
}

const { attach, setDefault, remove, updateExpiry } = endpoints.cards;

/** Attaches the payment method the processor confirmed (spec A §4). */
export const useAttachCard = (accountId: string) =>
  useCardChange(accountId, (cardToken: string) => api(attach, { accountId, body: { cardToken } }), Messages.cardAdded);

export const useSetDefaultCard = (accountId: string) =>
  useCardChange(
    accountId,
    (cardId: string) => api(setDefault, { accountId, body: { cardId } }),
    Messages.cardSetDefault,
  );

export const useRemoveCard = (accountId: string) =>
  useCardChange(accountId, (cardId: string) => api(remove, { accountId, body: { cardId } }), Messages.cardRemoved);

export const useUpdateCard = (accountId: string) =>
  useCardChange(
    accountId,
    (change: CardExpiryChange) => api(updateExpiry, { accountId, body: change }),
    Messages.cardUpdated,
  );
