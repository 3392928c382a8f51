import { type ANALYTICS_RANGES, endpoints, type RequestLogQuery } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { pageOffset, TABLE_PAGE_SIZE } from '../../lib/server-table';

export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

export interface AnalyticsFilter {
  apiKeyId?: string;
  network?: string;
  range: AnalyticsRange;
}

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A range as the figures' query names it: the last hours, or whole UTC days ending today. */
export function rangeQuery(range: AnalyticsRange, now = Date.now()) {
  if ('hours' in range) return { hours: range.hours };
  return { dateStart: utcDay(now - (range.days - 1) * DAY_MS), dateEnd: utcDay(now) };
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
