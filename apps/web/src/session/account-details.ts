import { endpoints } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api/client';
import { refreshCurrentAccount } from './session-store';

export const accountDetailsKey = (accountId: string) => ['account', accountId, 'details'] as const;

export const accountDetailsQuery = (accountId: string) => ({
  queryKey: accountDetailsKey(accountId),
  queryFn: () => api(endpoints.accounts.details, { accountId }),
});

/** How often the account layout re-reads the details, so suspension and re-activation show within a minute. */
export const ACCOUNT_POLL_MS = 60_000;

/**
 * Fresh details of an account (balance, pending amount, status, settings), shared by the pages that
 * show them; each fresh answer also updates the stored current account, so the suspended bar follows.
 */
export function useAccountDetails(accountId: string, options: { poll?: boolean } = {}) {
  const query = useQuery({
    ...accountDetailsQuery(accountId),
    enabled: accountId !== '',
    refetchInterval: options.poll ? ACCOUNT_POLL_MS : false,
  });
  useEffect(() => {
    if (query.data) refreshCurrentAccount(query.data);
  }, [query.data]);
  return query;
}
