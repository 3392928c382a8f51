import { endpoints } from '@ebs/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { pageOffset, TABLE_PAGE_SIZE } from '../../lib/server-table';

const N = endpoints.notify;

/** Addresses a page of the addresses card shows. */
export const ADDRESS_PAGE_SIZE = 20;
/** The delivery log is asked again this often while the page shows it: a new delivery appears by itself. */
export const DELIVERIES_REFRESH_MS = 5_000;
/** The list and a webhook's details (its last delivery, its status) are asked again this often. */
const WEBHOOKS_REFRESH_MS = 15_000;

export const webhookKeys = {
  all: (accountId: string) => ['account', accountId, 'notify'] as const,
  list: (accountId: string) => [...webhookKeys.all(accountId), 'list'] as const,
  /** The webhook, and under it its addresses and deliveries: a change to it refreshes them all. */
  webhook: (accountId: string, webhookId: string) => [...webhookKeys.all(accountId), 'webhook', webhookId] as const,
  addresses: (accountId: string, webhookId: string) =>
    [...webhookKeys.webhook(accountId, webhookId), 'addresses'] as const,
  addressPage: (accountId: string, webhookId: string, page: AddressPageParams) =>
    [...webhookKeys.addresses(accountId, webhookId), page] as const,
  deliveries: (accountId: string, webhookId: string) =>
    [...webhookKeys.webhook(accountId, webhookId), 'deliveries'] as const,
  deliveryPage: (accountId: string, webhookId: string, page: number) =>
    [...webhookKeys.deliveries(accountId, webhookId), page] as const,
};

/** The account's webhooks. */
export const useWebhooks = (accountId: string) =>
  useQuery({
    queryKey: webhookKeys.list(accountId),
    queryFn: async () => (await api(N.list, { accountId })).webhooks,
    enabled: accountId !== '',
    refetchInterval: WEBHOOKS_REFRESH_MS,
  });

export const useWebhook = (accountId: string, webhookId: string) =>
  useQuery({
    queryKey: webhookKeys.webhook(accountId, webhookId),
    queryFn: () => api(N.get, { accountId, params: { webhookId } }),
    enabled: accountId !== '' && webhookId !== '',
    // A failed read shows with Try again instead of being asked again unseen.
    refetchInterval: (query) => (query.state.status === 'error' ? false : WEBHOOKS_REFRESH_MS),
  });

export interface AddressPageParams {
  /** The last address of the page before; absent for the first page. */
  cursor?: string;
  /** Part of an address; absent for all of them. */
  search?: string;
}

/** One page of the watched addresses, in the server's order, from `cursor` on. */
export const useWebhookAddresses = (accountId: string, webhookId: string, page: AddressPageParams) =>
  useQuery({
    queryKey: webhookKeys.addressPage(accountId, webhookId, page),
    queryFn: () =>
      api(N.listAddresses, { accountId, params: { webhookId }, query: { limit: ADDRESS_PAGE_SIZE, ...page } }),
    enabled: accountId !== '' && webhookId !== '',
    placeholderData: keepPreviousData,
  });

/** One page (1-based, 10 a page) of the delivery log, asked again every few seconds. */
export const useDeliveries = (accountId: string, webhookId: string, page: number) =>
  useQuery({
    queryKey: webhookKeys.deliveryPage(accountId, webhookId, page),
    queryFn: () =>
      api(N.deliveries, {
        accountId,
        params: { webhookId },
        query: { limit: TABLE_PAGE_SIZE, offset: pageOffset(page) },
      }),
    enabled: accountId !== '' && webhookId !== '',
    placeholderData: keepPreviousData,
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
