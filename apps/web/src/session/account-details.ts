import type { AccountDetails } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';

export const accountDetailsKey = (accountId: string) => ['account', accountId, 'details'] as const;

/** Fresh details of an account (balance, pending amount, settings), shared by the pages that show them. */
export const useAccountDetails = (accountId: string) =>
  useQuery({
    queryKey: accountDetailsKey(accountId),
    queryFn: () => api.get<AccountDetails>('/api/v1.0/account/details', { accountId }),
    enabled: accountId !== '',
  });
