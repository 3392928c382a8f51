import type { SetupIntent } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

/** The card payment provider the console's setup intents come from (spec A §7: the last path segment). */
const CARD_PROVIDER = 'local';

export const cardKeys = {
  /** One setup intent per opening of a card entry (the Add Payment Method dialog, the wizard). */
  setupIntent: (accountId: string, opening: string) => ['setup-intent', accountId, opening] as const,
};

/** Creates the setup intent a card entry confirms; never refetched, forgotten once its user is gone. */
export const useSetupIntent = (accountId: string, opening: string) =>
  useQuery({
    queryKey: cardKeys.setupIntent(accountId, opening),
    queryFn: () => api.get<SetupIntent>(`/api/v1.0/payment/${CARD_PROVIDER}`, { accountId }),
    enabled: accountId !== '',
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
