import type { TransactionList } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

/** spec A §2: history tables are paged on the server, 10 per page. */
export const HISTORY_PAGE_SIZE = 10;

export interface TransactionParams {
  page: number;
  types?: string[];
  sortBy?: 'createdAt' | 'amount';
  order?: 'asc' | 'desc';
}

export const billingKeys = {
  transactions: (accountId: string, params: TransactionParams) =>
    ['billing', accountId, 'transactions', params] as const,
  types: ['billing', 'transaction-types'] as const,
};

export const useTransactions = (accountId: string, params: TransactionParams) =>
  useQuery({
    queryKey: billingKeys.transactions(accountId, params),
    queryFn: () =>
      api.get<TransactionList>('/api/v1.0/transaction', {
        accountId,
        query: {
          limit: HISTORY_PAGE_SIZE,
          offset: (params.page - 1) * HISTORY_PAGE_SIZE,
          typeIn: params.types?.length ? JSON.stringify(params.types) : undefined,
          sortBy: params.sortBy,
          order: params.order,
        },
      }),
    placeholderData: keepPreviousData,
  });

/** The full type list comes from the server (spec A §3). */
export const useTransactionTypes = () =>
  useQuery({
    queryKey: billingKeys.types,
    queryFn: () => api.get<Array<{ type: string; description: string }>>('/api/v1.0/transaction/type'),
    staleTime: Number.POSITIVE_INFINITY,
  });
