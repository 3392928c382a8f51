import {
  type ApiKeySettings,
  endpoints,
  type KeyRollOverlap,
  Messages,
  type UpdateApiKeySettingsBody,
} from '@ebs/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { apiKeyKeys, useKeyChange } from '../../api/keys-queries';
import { toast } from '../../lib/toast';

/** The API Keys page's own calls; the key list and a new key are in api/keys-queries.ts. */

const { rename, activate, deactivate, remove, settings, updateSettings, roll } = endpoints.keys;

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
