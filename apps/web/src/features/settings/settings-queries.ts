import { endpoints, Messages, type SigningSecret } from '@ebs/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { toast } from '../../lib/toast';
import { accountDetailsKey } from '../../session/account-details';
import { loadAccount } from '../../session/load-account';

export const settingsKeys = {
  signingSecret: (accountId: string) => ['account', accountId, 'signing-secret'] as const,
};

/** Fetched only once the user chooses Reveal, and forgotten when the page is left. */
export const useSigningSecret = (accountId: string, revealed: boolean) =>
  useQuery({
    queryKey: settingsKeys.signingSecret(accountId),
    queryFn: () => api(endpoints.accounts.signingSecret, { accountId }),
    enabled: revealed && accountId !== '',
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

/**
 * Rotate (owner only): the answer carries the new secret, which becomes the one Reveal shows, so
 * it is not fetched again.
 */
export function useRotateSigningSecret(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(endpoints.accounts.rotateSigningSecret, { accountId }),
    onSuccess: ({ secret }) => {
      toast.success(Messages.signingSecretRotated);
      queryClient.setQueryData<SigningSecret>(settingsKeys.signingSecret(accountId), { secret });
    },
  });
}

/**
 * A change of the account's name or people (spec B §4): its success toast, then the account is
 * reloaded and its details (the access list) refreshed.
 */
function useAccountChange<V, R>(accountId: string, call: (variables: V) => Promise<R>, successText: (r: R) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (result) => {
      toast.success(successText(result));
      // The change is made: a failed reload is only logged, so it cannot read as a failed change.
      loadAccount(accountId).catch((error: unknown) => console.error('Failed to reload the account', error));
      await queryClient.invalidateQueries({ queryKey: accountDetailsKey(accountId) });
    },
  });
}

export const useRenameAccount = (accountId: string) =>
  useAccountChange(
    accountId,
    (accountName: string) => api(endpoints.accounts.rename, { accountId, body: { accountName } }),
    (account) => Messages.updatedName(account.name),
  );

export const useAddUser = (accountId: string) =>
  useAccountChange(
    accountId,
    (email: string) => api(endpoints.accounts.addUser, { accountId, body: { email } }),
    (added) => Messages.userAdded(added.email),
  );

export const useRemoveUser = (accountId: string) =>
  useAccountChange(
    accountId,
    (userId: string) => api(endpoints.accounts.removeUser, { accountId, params: { userId } }),
    () => Messages.userRemoved,
  );
