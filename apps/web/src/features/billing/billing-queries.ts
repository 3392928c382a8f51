import type { AccountDetails, SpendingCapSetting } from '@ebs/contract';
import { endpoints, Messages } from '@ebs/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiText, apiWithMessage } from '../../api/client';
import { billingAccountKey } from '../../api/usage-queries';
import { pageOffset, TABLE_PAGE_SIZE } from '../../lib/server-table';
import { toast } from '../../lib/toast';
import { accountDetailsKey } from '../../session/account-details';

export interface TransactionParams {
  page: number;
  types?: string[];
  sortBy?: 'createdAt' | 'amount';
  order?: 'asc' | 'desc';
}

export const billingKeys = {
  /** Everything of one account's billing history, e.g. to refresh after a deposit. */
  account: billingAccountKey,
  transactions: (accountId: string, params: TransactionParams) =>
    ['billing', accountId, 'transactions', params] as const,
  types: ['billing', 'transaction-types'] as const,
};

export const useTransactions = (accountId: string, params: TransactionParams) =>
  useQuery({
    queryKey: billingKeys.transactions(accountId, params),
    queryFn: () =>
      api(endpoints.billing.listTransactions, {
        accountId,
        query: { limit: TABLE_PAGE_SIZE, offset: pageOffset(params.page), ...transactionFilters(params) },
      }),
    placeholderData: keepPreviousData,
  });

/** The history's filters and order as the list and its export take them. */
const transactionFilters = (params: TransactionParams) => ({
  typeIn: params.types?.length ? JSON.stringify(params.types) : undefined,
  sortBy: params.sortBy,
  order: params.order,
});

/** Every transaction the history's filters keep, as CSV. */
export const exportTransactions = (accountId: string, params: TransactionParams) =>
  apiText(endpoints.billing.exportTransactions, { accountId, query: transactionFilters(params) });

/** The statement of one month (to today for the current one) as a PDF file. */
export const downloadStatement = (accountId: string, dateStart: string, dateEnd: string) =>
  api(endpoints.billing.downloadStatement, { accountId, query: { dateStart, dateEnd } });

/** The full type list comes from the server (spec A §3). */
export const useTransactionTypes = () =>
  useQuery({
    queryKey: billingKeys.types,
    queryFn: () => api(endpoints.billing.listTransactionTypes),
    staleTime: Number.POSITIVE_INFINITY,
  });

export interface DepositRequest {
  cardId: string;
  depositAmount: number;
  /** One per opening of the confirmation, so a double click or a retry never charges twice. */
  idempotencyKey: string;
}

/** A one-time deposit from a card (spec A §4); on success the balance and the history are refreshed. */
export function useDeposit(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ cardId, depositAmount, idempotencyKey }: DepositRequest) =>
      api(endpoints.billing.deposit, {
        accountId,
        body: { cardId, depositAmount },
        headers: { 'idempotency-key': idempotencyKey },
      }),
    onSuccess: async () => {
      // The server answers this text as the wrapper's message; the client hands back only its data.
      toast.success(Messages.paymentProcessing);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accountDetailsKey(accountId) }),
        queryClient.invalidateQueries({ queryKey: billingKeys.account(accountId) }),
      ]);
    },
  });
}

export type AutoDeposit = AccountDetails['setting']['autoDeposit'];
export type AutoDepositChange =
  | Pick<AutoDeposit, 'autoDepositEnabled'>
  | { minBalance: number; autoDepositAmount: number };

/** Saves the Auto Pay toggle, or its threshold and amount (spec A §4), and refreshes the account details. */
export function useUpdateAutoDeposit(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: AutoDepositChange) =>
      api(endpoints.billing.updateAccountSettings, {
        accountId,
        body: { settingName: 'autoDeposit', fields },
      }),
    onSuccess: async (saved) => {
      queryClient.setQueryData<AccountDetails>(accountDetailsKey(accountId), (details) =>
        details && saved && 'autoDepositEnabled' in saved && typeof saved.autoDepositEnabled === 'boolean'
          ? { ...details, setting: { ...details.setting, autoDeposit: saved } }
          : details,
      );
      await queryClient.invalidateQueries({ queryKey: accountDetailsKey(accountId) });
    },
  });
}

/**
 * Saves the spending cap and the Auto Pay monthly limit (null: none), then refreshes the account
 * details; answers the setting as saved with the server's message.
 */
export function useUpdateSpendingCap(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: SpendingCapSetting) =>
      apiWithMessage(endpoints.billing.updateAccountSettings, {
        accountId,
        body: { settingName: 'spendingCap', fields },
      }),
    onSuccess: async ({ data: saved }) => {
      queryClient.setQueryData<AccountDetails>(accountDetailsKey(accountId), (details) =>
        details && saved && 'monthlyCapUsd' in saved
          ? { ...details, setting: { ...details.setting, spendingCap: saved } }
          : details,
      );
      await queryClient.invalidateQueries({ queryKey: accountDetailsKey(accountId) });
    },
  });
}
