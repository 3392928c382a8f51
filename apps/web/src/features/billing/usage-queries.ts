import { DEFAULT_USAGE_RESOURCES, type EndpointQuery, endpoints } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, apiText } from '../../api/client';
import { fetchAllPages } from '../../lib/all-pages';
import { pageOffset, type SortDirection, TABLE_PAGE_SIZE } from '../../lib/server-table';
import { toast } from '../../lib/toast';
import { billingKeys } from './billing-queries';
import { monthlyUsage, type UsageDays } from './usage-month';

/** spec A §9: the monthly summary fetches up to 1000 records at once. */
export const MONTHLY_PAGE_SIZE = 1000;

export interface UsageParams {
  page: number;
  resourceNames?: string[];
  /** spec A §7: the history asks for the newest first unless the user flips the Date sort. */
  order: SortDirection;
}

export const usageKeys = {
  // Under the account's billing key, so a deposit's refresh of the history covers usage too.
  list: (accountId: string, params: UsageParams) => [...billingKeys.account(accountId), 'usage', params] as const,
  resources: (accountId: string) => ['billing', accountId, 'usage-resources'] as const,
  month: (accountId: string, month: UsageDays) => [...billingKeys.account(accountId), 'usage-month', month] as const,
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

/** Service Usage History (spec A §2, §7): one page of the account's usage records. */
export const useUsage = (accountId: string, params: UsageParams) =>
  useQuery({
    queryKey: usageKeys.list(accountId, params),
    queryFn: () =>
      api(endpoints.usage.list, {
        accountId,
        query: { accountId, limit: TABLE_PAGE_SIZE, offset: pageOffset(params.page), ...usageFilters(params) },
      }),
    placeholderData: keepPreviousData,
  });

/** The history's filters and order as the list and its export take them. */
const usageFilters = (params: UsageParams) => ({
  order: params.order,
  resourceNameIn: params.resourceNames?.length ? JSON.stringify(params.resourceNames) : undefined,
});

/** Every usage record the history's filters keep, as CSV. */
export const exportUsage = (accountId: string, params: UsageParams) =>
  apiText(endpoints.usage.exportList, { accountId, query: { accountId, ...usageFilters(params) } });

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
