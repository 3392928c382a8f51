import { endpoints, type ResourceUsageRecord } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client';
import { MONTHLY_PAGE_SIZE, usagePage } from '../../api/usage-queries';
import { fetchAllPages } from '../../lib/all-pages';
import { toast } from '../../lib/toast';
import type { DayBounds } from './overview-dates';
import { monthlyBill, WITHDRAW_TYPE } from './usage-sums';

/** spec A §9: charts page in blocks of 100 records (the monthly summary 1000 at once: MONTHLY_PAGE_SIZE). */
export const CHART_PAGE_SIZE = 100;

export const overviewKeys = {
  monthlyBill: (accountId: string, month: DayBounds) => ['overview', accountId, 'monthly-bill', month] as const,
  usage: (accountId: string, range: DayBounds, resources: readonly string[]) =>
    ['overview', accountId, 'usage', range, resources] as const,
};

/** Shows a query's error once per failure (spec A §8: errors as returned by the service). */
export function useErrorToast(error: unknown) {
  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);
}

/** The Monthly Bill card: the month's usage withdrawals, summed exactly to 2 decimals. */
export const useMonthlyBill = (accountId: string, month: DayBounds) =>
  useQuery({
    queryKey: overviewKeys.monthlyBill(accountId, month),
    queryFn: () =>
      fetchAllPages(MONTHLY_PAGE_SIZE, (offset) =>
        api(endpoints.billing.listTransactions, {
          accountId,
          query: { limit: MONTHLY_PAGE_SIZE, offset, ...month, typeIn: JSON.stringify([WITHDRAW_TYPE]) },
        }).then((list) => ({ items: list.transactions, totalCount: list.totalCount })),
      ),
    select: monthlyBill,
    enabled: accountId !== '',
  });

/** A chart's records with the range and resources they were asked for. */
export interface ChartRecords {
  range: DayBounds;
  resources: readonly string[];
  records: ResourceUsageRecord[];
}

/**
 * A chart's usage records: every record of the range and resources, paged in blocks of 100 in
 * ascending order (spec A §7). Waits for the resource list; keeps the last answer on screen while
 * a new range loads.
 */
export const useUsageRecords = (accountId: string, range: DayBounds, resources: readonly string[] | undefined) =>
  useQuery({
    queryKey: overviewKeys.usage(accountId, range, resources ?? []),
    queryFn: async (): Promise<ChartRecords> => {
      const names = resources ?? [];
      const records = await fetchAllPages(CHART_PAGE_SIZE, (offset) =>
        usagePage(accountId, {
          ...range,
          resourceNameIn: JSON.stringify(names),
          limit: CHART_PAGE_SIZE,
          offset,
          order: 'asc',
        }),
      );
      return { range, resources: names, records };
    },
    enabled: accountId !== '' && resources !== undefined,
    placeholderData: keepPreviousData,
  });
