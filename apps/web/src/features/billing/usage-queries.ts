import { DEFAULT_USAGE_RESOURCES, endpoints } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, apiText } from '../../api/client';
import { pageOffset, type SortDirection, TABLE_PAGE_SIZE } from '../../lib/server-table';
import { toast } from '../../lib/toast';
import { billingKeys } from './billing-queries';

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
};

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

/**
 * The billable resource names (spec A §7), or undefined while they load. spec A §8: when the list
 * cannot be fetched the error is shown and the default resources (Polygon and Ethereum RPC) are used.
 */
export function useUsageResourceNames(accountId: string): string[] | undefined {
  const query = useQuery({
    queryKey: usageKeys.resources(accountId),
    queryFn: () => api(endpoints.usage.listResources, { accountId }),
    enabled: accountId !== '',
    staleTime: 5 * 60_000,
  });
  useEffect(() => {
    if (query.error) toast.error(query.error);
  }, [query.error]);
  if (query.data) return query.data.map((resource) => resource.resourceName);
  return query.isError ? [...DEFAULT_USAGE_RESOURCES] : undefined;
}
