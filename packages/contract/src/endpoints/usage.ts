import { endpoint } from '../endpoint.ts';
import { AccountHeaders } from '../headers.ts';
import { MethodSeries, MethodStatList, MethodStatsQuery, RequestLogList, RequestLogQuery } from '../insight.ts';
import { ResourceUsageList, UsageListQuery, UsageResourceList } from '../usage.ts';

const usageCall = { access: 'account', tag: 'usage', headers: AccountHeaders } as const;

/** The usage and prices (spec A §7 Transactions and usage). */
export const usageEndpoints = {
  list: endpoint({
    ...usageCall,
    method: 'GET',
    path: '/api/v1.0/usage/api/billing',
    query: UsageListQuery,
    response: ResourceUsageList,
  }),
  /** The billable resources and the price of one unit (a compute unit; a token forward). */
  listResources: endpoint({
    ...usageCall,
    method: 'GET',
    path: '/api/v1.0/usage/api/billing/resource',
    response: UsageResourceList,
  }),

  /** The usage records as CSV, with the list's filters (its paging is ignored): every matching row, streamed. */
  exportList: endpoint({
    ...usageCall,
    method: 'GET',
    path: '/api/v1.0/usage/api/billing/export',
    query: UsageListQuery,
    description: 'text/csv with a header row; not the success wrapper.',
  }),
  /** Calls, errors and latency per method and network (the Analytics page). */
  methods: endpoint({
    ...usageCall,
    method: 'GET',
    path: '/api/v1.0/usage/api/methods',
    query: MethodStatsQuery,
    response: MethodStatList,
  }),
  /** The same figures per hour (a range of hours or up to 7 days) or per day, for the charts. */
  methodSeries: endpoint({
    ...usageCall,
    method: 'GET',
    path: '/api/v1.0/usage/api/methods/series',
    query: MethodStatsQuery,
    response: MethodSeries,
  }),
  /** The request log: the last 7 days, sampled (every failed request kept), newest first. */
  requests: endpoint({
    ...usageCall,
    method: 'GET',
    path: '/api/v1.0/usage/api/requests',
    query: RequestLogQuery,
    response: RequestLogList,
  }),
};
