import { endpoints } from '@ebs/contract';
import { skipToken, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useCardProvider } from './card-provider';

export const cardKeys = {
  /** One setup intent per opening of a card entry (the Add Payment Method dialog, the wizard). */
  setupIntent: (accountId: string, opening: string) => ['setup-intent', accountId, opening] as const,
};

/**
 * Creates the setup intent a card entry confirms, at the configured card provider (spec A §7: the
 * last path segment); never refetched, forgotten once its user is gone.
 */
export function useSetupIntent(accountId: string, opening: string) {
  const provider = useCardProvider()?.name;
  return useQuery({
    queryKey: cardKeys.setupIntent(accountId, opening),
    // Waits for the provider (skipToken) and for the account (enabled).
    queryFn:
      provider === undefined
        ? skipToken
        : () => api(endpoints.cards.createSetupIntent, { accountId, params: { provider } }),
    enabled: accountId !== '',
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}
