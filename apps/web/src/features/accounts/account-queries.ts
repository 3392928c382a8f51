import { endpoints, HIDDEN_ACCOUNT_NAME } from '@ebs/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { setUser } from '../../session/session-store';

/** spec A §9: the account list is fetched 100 at a time from offset 0. */
export const ACCOUNTS_PAGE_SIZE = 100;

export const accountKeys = {
  all: ['account'] as const,
  list: (page: number) => ['account', 'list', page] as const,
};

/** One server page of the user's accounts; the list call sends ebs-account-id empty (spec A §6). */
export const useAccountList = (page: number) =>
  useQuery({
    queryKey: accountKeys.list(page),
    queryFn: () =>
      api(endpoints.accounts.list, {
        query: { limit: ACCOUNTS_PAGE_SIZE, offset: (page - 1) * ACCOUNTS_PAGE_SIZE },
        accountId: '',
      }),
    placeholderData: keepPreviousData,
  });

export interface FinishRequest {
  accountId: string;
  accountName: string;
  redeemWelcomeCredit: boolean;
  cardId: string | null;
}

/**
 * The creation wizard's two server steps (spec A §4): its draft (the account named
 * ACCOUNT_CREATION, which the server keeps one of per user), then the finish step that names it.
 */
export function useAccountCreation() {
  const queryClient = useQueryClient();
  const draft = useMutation({
    mutationFn: () => api(endpoints.accounts.create, { accountId: '', body: { accountName: HIDDEN_ACCOUNT_NAME } }),
  });
  const attach = useMutation({
    mutationFn: ({ accountId, cardToken }: { accountId: string; cardToken: string }) =>
      api(endpoints.cards.attach, { accountId, body: { cardToken } }),
  });
  const finish = useMutation({
    mutationFn: (request: FinishRequest) =>
      api(endpoints.accounts.finishCreate, {
        accountId: request.accountId,
        body: request,
      }),
    onSuccess: async () => {
      // The welcome credit may now be redeemed: the user record changes with the account list.
      api(endpoints.users.info).then(setUser, (error: unknown) => console.error('Failed to reload the user', error));
      await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    },
  });
  return { draft, attach, finish };
}
