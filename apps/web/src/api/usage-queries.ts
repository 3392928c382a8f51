import { DEFAULT_USAGE_RESOURCES, type EndpointQuery, endpoints } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { fetchAllPages } from '../lib/all-pages';
import { toast } from '../lib/toast';
import { monthlyUsage, type UsageDays } from '../lib/usage-month';
import { api } from './client';

/**
 * The account's usage as the Overview and Billing read it alike: the month's records summed, and
 * the billable resources. Billing's Service Usage History is in features/billing/usage-queries.ts.
 */

/** spec A §9: the monthly summary fetches up to 1000 records at once. */
export const MONTHLY_PAGE_SIZE = 1000;

/** Everything of one account's billing history, its usage included, e.g. to refresh after a deposit. */
export const billingAccountKey = (accountId: string) => ['billing', accountId] as const;

export const usageKeys = {
  resources: (accountId: string) => ['billing', accountId, 'usage-resources'] as const,
  // Under the account's billing key, so a deposit's refresh of the history covers usage too.
  month: (accountId: string, month: UsageDays) => [...billingAccountKey(accountId), 'usage-month', month] as const,
};

/** One page of the account's usage records, as fetchAllPages takes it. */
export const usagePage = (accountId: string, query: Omit<EndpointQuery<typeof endpoints.usage.list>, 'accountId'>) =>
  api(endpoints.usage.list, { accountId, query: { accountId, ...query } }).then((list) => ({
    items: list.accountResourceUsage,
    totalCount: list.totalCount,
  }));

/**
 * The month's usage records summed (monthlyUsage): the Overview's Monthly API Calls and what its
 * Monthly Bill has not posted yet, and the month's cost per resource on Billing Overview.
 */
export const useMonthlyUsage = (accountId: string, month: UsageDays) =>
  useQuery({
    queryKey: usageKeys.month(accountId, month),
    queryFn: () =>
      fetchAllPages(MONTHLY_PAGE_SIZE, (offset) =>
        usagePage(accountId, { ...month, limit: MONTHLY_PAGE_SIZE, offset, order: 'desc' }),
      ),
    select: monthlyUsage,
    enabled: accountId !== '',
  });

/** The billable resources with their unit prices (spec A §7). */
export const useUsageResources = (accountId: string) =>
  useQuery({
    queryKey: usageKeys.resources(accountId),
    queryFn: () => api(endpoints.usage.listResources, { accountId }),
    enabled: accountId !== '',
    staleTime: 5 * 60_000,
  });

/**
 * The billable resource names (spec A §7), or undefined while they load. spec A §8: when the list
 * cannot be fetched the error is shown and the default resources (Polygon and Ethereum RPC) are used.
 */
export function useUsageResourceNames(accountId: string): string[] | undefined {
  const query = useUsageResources(accountId);
  useEffect(() => {
    if (query.error) toast.error(query.error);
  }, [query.error]);
  if (query.data) return query.data.map((resource) => resource.resourceName);
  return query.isError ? [...DEFAULT_USAGE_RESOURCES] : undefined;
}
