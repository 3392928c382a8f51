import {
  API_KEY_LIST_LIMIT,
  type ApiKeySettings,
  endpoints,
  type KeyRollOverlap,
  Messages,
  type UpdateApiKeySettingsBody,
} from '@ebs/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { toast } from '../../lib/toast';

export const apiKeyKeys = {
  list: (accountId: string) => ['account', accountId, 'api-keys'] as const,
  settings: (accountId: string, apiKeyId: string) => ['account', accountId, 'api-keys', apiKeyId, 'settings'] as const,
};

const { list, create, rename, activate, deactivate, remove, settings, updateSettings, roll } = endpoints.keys;

/** spec A §7, §9: the console fetches 100 keys at offset 0. */
export const useApiKeys = (accountId: string) =>
  useQuery({
    queryKey: apiKeyKeys.list(accountId),
    queryFn: () => api(list, { accountId, query: { limit: API_KEY_LIST_LIMIT, offset: 0 } }),
    enabled: accountId !== '',
  });

/** A change to the account's keys: its success toast, then the list is fetched again. */
function useKeyChange<V, R>(
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
    (apiKeyName: string) => api(create, { accountId, body: { apiKeyName } }),
    (created) => Messages.createdName(created.name),
    { gcTime: 0 },
  );

export const useRenameApiKey = (accountId: string) =>
  useKeyChange(
    accountId,
    ({ apiKeyId, apiKeyName }: { apiKeyId: string; apiKeyName: string }) =>
      api(rename, { accountId, params: { apiKeyId }, body: { apiKeyName } }),
    (key) => Messages.updatedName(key.name),
  );

// spec A §7: activate and deactivate are sent with an empty body.
export const useActivateApiKey = (accountId: string) =>
  useKeyChange(
    accountId,
    (apiKeyId: string) => api(activate, { accountId, params: { apiKeyId } }),
    () => Messages.apiKeyActivated,
  );

export const useDeactivateApiKey = (accountId: string) =>
  useKeyChange(
    accountId,
    (apiKeyId: string) => api(deactivate, { accountId, params: { apiKeyId } }),
    () => Messages.apiKeyDeactivated,
  );

export const useDeleteApiKey = (accountId: string) =>
  useKeyChange(
    accountId,
    (apiKeyId: string) => api(remove, { accountId, params: { apiKeyId } }),
    () => Messages.apiKeyDeleted,
  );

export const useApiKeySettings = (accountId: string, apiKeyId: string) =>
  useQuery({
    queryKey: apiKeyKeys.settings(accountId, apiKeyId),
    queryFn: () => api(settings, { accountId, params: { apiKeyId } }),
  });

/** The answer is the whole settings: it becomes the cached settings, so nothing is fetched again. */
export function useUpdateApiKeySettings(accountId: string, apiKeyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateApiKeySettingsBody) => api(updateSettings, { accountId, params: { apiKeyId }, body }),
    onSuccess: (saved: ApiKeySettings) => {
      toast.success(Messages.apiKeySettingsSaved);
      queryClient.setQueryData(apiKeyKeys.settings(accountId, apiKeyId), saved);
    },
  });
}

/** The new secret is shown once: dropped from the cache as the created key is. */
export const useRollApiKey = (accountId: string, apiKeyId: string) =>
  useKeyChange(
    accountId,
    (overlapSeconds: KeyRollOverlap) => api(roll, { accountId, params: { apiKeyId }, body: { overlapSeconds } }),
    () => Messages.apiKeyRolled,
    { gcTime: 0 },
  );
