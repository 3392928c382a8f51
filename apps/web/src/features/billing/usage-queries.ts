import type { ResourceUsageList, UsageResource } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { pageOffset, type SortDirection, TABLE_PAGE_SIZE } from '../../lib/server-table';
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
  resources: ['billing', 'usage-resources'] as const,
};

/** Service Usage History (spec A §2, §7): one page of the account's usage records. */
export const useUsage = (accountId: string, params: UsageParams) =>
  useQuery({
    queryKey: usageKeys.list(accountId, params),
    queryFn: () =>
      api.get<ResourceUsageList>('/api/v1.0/usage/api/billing', {
        accountId,
        query: {
          accountId,
          limit: TABLE_PAGE_SIZE,
          offset: pageOffset(params.page),
          order: params.order,
          resourceNameIn: params.resourceNames?.length ? JSON.stringify(params.resourceNames) : undefined,
        },
      }),
    placeholderData: keepPreviousData,
  });

/** The billable resources and their prices (spec A §7). */
export const useUsageResources = () =>
  useQuery({
    queryKey: usageKeys.resources,
    queryFn: () => api.get<UsageResource[]>('/api/v1.0/usage/api/billing/resource'),
    staleTime: Number.POSITIVE_INFINITY,
  });
