import {
  type ANALYTICS_RANGES,
  endpoints,
  FORWARDING_NETWORKS,
  isNetwork,
  NOTIFY_PREFIX,
  NOTIFY_RESOURCES,
  type RequestLogQuery,
  type ResourceUsageRecord,
} from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { usagePage } from '../../api/usage-queries';
import { fetchAllPages } from '../../lib/all-pages';
import { networkName } from '../../lib/format';
import { pageOffset, TABLE_PAGE_SIZE } from '../../lib/server-table';
import type { UsageDays } from '../../lib/usage-month';

export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

export interface AnalyticsFilter {
  apiKeyId?: string;
  network?: string;
  range: AnalyticsRange;
}

const HOUR_MS = 3_600_000;
/** The most usage records the list answers at once. */
const USAGE_PAGE_SIZE = 1000;
const DAY_MS = 24 * HOUR_MS;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A range as the figures' query names it: the last hours, or whole UTC days ending today. */
export function rangeQuery(range: AnalyticsRange, now = Date.now()) {
  if ('hours' in range) return { hours: range.hours };
  return { dateStart: utcDay(now - (range.days - 1) * DAY_MS), dateEnd: utcDay(now) };
}

/**
 * A range as the usage list dates its records: whole UTC days, so the last 24 hours take the two
 * days they cross.
 */
export function usageDays(range: AnalyticsRange, now = Date.now()): UsageDays {
  const span = 'hours' in range ? range.hours * HOUR_MS : (range.days - 1) * DAY_MS;
  return { dateStart: utcDay(now - span), dateEnd: utcDay(now) };
}

const filterQuery = (filter: AnalyticsFilter) => ({
  ...rangeQuery(filter.range),
  apiKeyId: filter.apiKeyId,
  network: filter.network,
});

export const insightKeys = {
  methods: (accountId: string, filter: AnalyticsFilter) => ['insight', accountId, 'methods', filter] as const,
  series: (accountId: string, filter: AnalyticsFilter) => ['insight', accountId, 'series', filter] as const,
  requests: (accountId: string, params: RequestLogParams) => ['insight', accountId, 'requests', params] as const,
  webhookDeliveries: (accountId: string, range: AnalyticsRange) =>
    ['insight', accountId, 'webhook-deliveries', range.label] as const,
};

/** The figures per method and network in the filter's range. */
export const useMethodStats = (accountId: string, filter: AnalyticsFilter) =>
  useQuery({
    queryKey: insightKeys.methods(accountId, filter),
    queryFn: () => api(endpoints.usage.methods, { accountId, query: filterQuery(filter) }),
    placeholderData: keepPreviousData,
  });

/** The same per hour (the last 24 hours) or per day, for the charts. */
export const useMethodSeries = (accountId: string, filter: AnalyticsFilter) =>
  useQuery({
    queryKey: insightKeys.series(accountId, filter),
    queryFn: () => api(endpoints.usage.methodSeries, { accountId, query: filterQuery(filter) }),
    placeholderData: keepPreviousData,
  });

export type RequestLogParams = Pick<
  RequestLogQuery,
  'failedOnly' | 'method' | 'apiKeyId' | 'network' | 'httpStatus'
> & {
  page: number;
};

/** One page of the request log, 10 per page, newest first. */
export const useRequestLog = (accountId: string, params: RequestLogParams) =>
  useQuery({
    queryKey: insightKeys.requests(accountId, params),
    queryFn: () => {
      const { page, ...filters } = params;
      return api(endpoints.usage.requests, {
        accountId,
        query: { ...filters, limit: TABLE_PAGE_SIZE, offset: pageOffset(page) },
      });
    },
    placeholderData: keepPreviousData,
  });

export interface NetworkDeliveries {
  resource: string;
  network: string;
  deliveries: number;
}

/** A webhook delivery resource's network, by the RPC page's name ("Ethereum Sepolia"). */
function deliveryNetworkName(resource: string): string {
  const network = resource.slice(NOTIFY_PREFIX.length);
  const info = isNetwork(network) ? FORWARDING_NETWORKS[network] : undefined;
  return info?.kind === 'evm' ? networkName(info.rpcPath) : network;
}

/** The usage records' deliveries summed per network, the busiest first. */
export function deliveriesPerNetwork(records: ResourceUsageRecord[]): NetworkDeliveries[] {
  const sums = new Map<string, number>();
  for (const record of records) sums.set(record.resourceName, (sums.get(record.resourceName) ?? 0) + record.usage);
  return [...sums]
    .map(([resource, deliveries]) => ({ resource, network: deliveryNetworkName(resource), deliveries }))
    .sort((a, b) => b.deliveries - a.deliveries || a.network.localeCompare(b.network));
}

/** The address-activity webhooks' deliveries in the range (each one is usage of its network's NOTIFY_ resource). */
export const useWebhookDeliveries = (accountId: string, range: AnalyticsRange) =>
  useQuery({
    queryKey: insightKeys.webhookDeliveries(accountId, range),
    queryFn: () =>
      fetchAllPages(USAGE_PAGE_SIZE, (offset) =>
        usagePage(accountId, {
          ...usageDays(range),
          resourceNameIn: JSON.stringify(NOTIFY_RESOURCES),
          limit: USAGE_PAGE_SIZE,
          offset,
          order: 'desc',
        }),
      ),
    select: deliveriesPerNetwork,
    enabled: accountId !== '',
    placeholderData: keepPreviousData,
  });
