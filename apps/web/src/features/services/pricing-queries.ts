import { endpoints } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { billingAccountKey, usagePage } from '../../api/usage-queries';
import { fetchAllPages } from '../../lib/all-pages';
import type { UsageDays } from '../../lib/usage-month';

/** The most usage records the list answers at once. */
const USAGE_PAGE_SIZE = 1000;

export const pricingKeys = {
  pricing: () => ['rpc-pricing'] as const,
  // Under the account's billing key, so a deposit's refresh of the history covers these too.
  usage: (accountId: string, days: UsageDays) => [...billingAccountKey(accountId), 'usage-days', days] as const,
};

/** What calls cost (public: the same for every account); the operator changes it seldom. */
export const usePricing = () =>
  useQuery({
    queryKey: pricingKeys.pricing(),
    queryFn: () => api(endpoints.rpc.pricing),
    staleTime: 5 * 60_000,
  });

/** Every usage record of the account dated in `days`, paged by 1000 until totalCount. */
export const useUsageRecords = (accountId: string, days: UsageDays) =>
  useQuery({
    queryKey: pricingKeys.usage(accountId, days),
    queryFn: () =>
      fetchAllPages(USAGE_PAGE_SIZE, (offset) =>
        usagePage(accountId, { ...days, limit: USAGE_PAGE_SIZE, offset, order: 'desc' }),
      ),
    enabled: accountId !== '',
  });
