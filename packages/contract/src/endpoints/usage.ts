import { endpoint } from '../endpoint.ts';
import { AccountHeaders } from '../headers.ts';
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
  /** The billable resources and their price per request. */
  listResources: endpoint({
    ...usageCall,
    method: 'GET',
    path: '/api/v1.0/usage/api/billing/resource',
    response: UsageResourceList,
  }),
};
