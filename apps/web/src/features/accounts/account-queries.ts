import type { AccountList } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

/** spec A §9: the account list is fetched 100 at a time from offset 0. */
export const ACCOUNTS_PAGE_SIZE = 100;

export const accountKeys = {
  all: ['account'] as const,
  list: (page: number) => ['account', 'list', page] as const,
};

/** One server page of the user's accounts; the list call sends ebs-account-id empty (spec A §6). */
export const useAccountList = (page: number) =>
  useQuery({
    queryKey: accountKeys.list(page),
    queryFn: () =>
      api.get<AccountList>('/api/v1.0/account', {
        query: { limit: ACCOUNTS_PAGE_SIZE, offset: (page - 1) * ACCOUNTS_PAGE_SIZE },
        accountId: '',
      }),
    placeholderData: keepPreviousData,
  });
