import { API_KEY_LIST_LIMIT, endpoints, Messages } from '@ebs/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../lib/toast';
import { api } from './client';

/**
 * The account's API keys as several pages read them: the list (API Keys, the RPC page, the Request
 * Log's key filter) and a new key (API Keys, the account wizard's first key). The API Keys page's
 * other changes are in features/keys/keys-queries.ts.
 */

export const apiKeyKeys = {
  list: (accountId: string) => ['account', accountId, 'api-keys'] as const,
  settings: (accountId: string, apiKeyId: string) => ['account', accountId, 'api-keys', apiKeyId, 'settings'] as const,
};

/** spec A §7, §9: the console fetches 100 keys at offset 0. */
export const useApiKeys = (accountId: string) =>
  useQuery({
    queryKey: apiKeyKeys.list(accountId),
    queryFn: () => api(endpoints.keys.list, { accountId, query: { limit: API_KEY_LIST_LIMIT, offset: 0 } }),
    enabled: accountId !== '',
  });

/** A change to the account's keys: its success toast, then the list is fetched again. */
export function useKeyChange<V, R>(
  accountId: string,
  call: (variables: V) => Promise<R>,
  successText: (result: R) => string,
  options: { gcTime?: number } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    ...options,
    onSuccess: async (result) => {
      toast.success(successText(result));
      await queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(accountId) });
    },
  });
}

/**
 * The answer holds the key itself, shown once: the mutation is dropped from the cache as soon as
 * nothing observes it, so the key lives only as long as the display that shows it.
 */
export const useCreateApiKey = (accountId: string) =>
  useKeyChange(
    accountId,
    (apiKeyName: string) => api(endpoints.keys.create, { accountId, body: { apiKeyName } }),
    (created) => Messages.createdName(created.name),
    { gcTime: 0 },
  );
