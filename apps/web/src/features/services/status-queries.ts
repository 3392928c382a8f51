import { endpoints } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

/** How often a page that shows the networks' status asks again (the server keeps an answer a few seconds). */
export const STATUS_REFRESH_MS = 15_000;

export const statusKeys = {
  networks: () => ['rpc-status'] as const,
};

/**
 * Every network's head, state and last 24 hours (public: the same for every account), asked again
 * every 15 seconds while a page shows it; the RPC and Status pages share the answer.
 */
export const useNetworkStatus = () =>
  useQuery({
    queryKey: statusKeys.networks(),
    queryFn: () => api(endpoints.rpc.status),
    refetchInterval: STATUS_REFRESH_MS,
    staleTime: STATUS_REFRESH_MS,
  });
