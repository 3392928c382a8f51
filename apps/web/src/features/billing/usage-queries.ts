import { endpoints } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, apiText } from '../../api/client';
import { pageOffset, type SortDirection, TABLE_PAGE_SIZE } from '../../lib/server-table';
import { billingKeys } from './billing-queries';

/**
 * Service Usage History (spec A §2, §7); the month's usage and the billable resources, which the
 * Overview reads too, are in api/usage-queries.ts.
 */

export interface UsageParams {
  page: number;
  resourceNames?: string[];
  /** spec A §7: the history asks for the newest first unless the user flips the Date sort. */
  order: SortDirection;
}

// Under the account's billing key, so a deposit's refresh of the history covers usage too.
const usageListKey = (accountId: string, params: UsageParams) =>
  [...billingKeys.account(accountId), 'usage', params] as const;

/** Service Usage History (spec A §2, §7): one page of the account's usage records. */
export const useUsage = (accountId: string, params: UsageParams) =>
  useQuery({
    queryKey: usageListKey(accountId, params),
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
