import { endpoints } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { ACCOUNT_POLL_MS } from './account-details';

export const activeAlertsKey = (accountId: string) => ['account', accountId, 'alerts', 'active'] as const;

/**
 * The account's alerts that hold now, for the notice above every account page. A failure shows
 * nothing: the notice is not worth a toast on every page.
 */
export function useActiveAlerts(accountId: string) {
  const query = useQuery({
    queryKey: activeAlertsKey(accountId),
    queryFn: () => api(endpoints.accounts.activeAlerts, { accountId }),
    enabled: accountId !== '',
    // Alerts change when the alerts job runs (every minute): read as often as the account's details.
    refetchInterval: ACCOUNT_POLL_MS,
    retry: false,
  });
  return query.data?.active ?? [];
}
