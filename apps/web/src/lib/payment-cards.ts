import { endpoints } from '@ebs/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';

export const paymentCardKeys = {
  list: (accountId: string) => ['payment-cards', accountId] as const,
};

/** The account's saved payment cards (spec A §3), read by the card page and the deposit confirmation. */
export const paymentCardsQuery = (accountId: string) =>
  queryOptions({
    queryKey: paymentCardKeys.list(accountId),
    queryFn: () => api(endpoints.cards.list, { accountId }),
    enabled: accountId !== '',
  });

export const usePaymentCards = (accountId: string) => useQuery(paymentCardsQuery(accountId));
