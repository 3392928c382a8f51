import { endpoints, type PublicConfig } from '@ebs/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

export const publicConfigQuery = queryOptions({
  queryKey: ['config'],
  queryFn: () => api(endpoints.system.config),
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});

/** The public configuration read once at start-up; undefined when that call failed. */
export const usePublicConfig = (): PublicConfig | undefined => useQuery(publicConfigQuery).data;

/** Where the console's API and gateway answer: the configured base, else the page's own origin. */
export const useApiBase = (): string => usePublicConfig()?.apiBase || window.location.origin;
