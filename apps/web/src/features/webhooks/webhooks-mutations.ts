import {
  type CreateNotifyWebhookBody,
  endpoints,
  NOTIFY_LIMITS,
  NotifyMessages,
  type NotifyReplayBody,
  type NotifyWebhook,
  type NotifyWebhookStatus,
} from '@ebs/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { errorText } from '../../lib/error-text';
import { toast } from '../../lib/toast';
import { inChunks } from './parse-addresses';
import { webhookKeys } from './webhooks-queries';
import { WebhooksTexts as T } from './webhooks-texts';

const N = endpoints.notify;
const PER_CALL = NOTIFY_LIMITS.addressesPerChange;

/** How many of the addresses given have been sent so far. */
export interface Progress {
  sent: number;
  total: number;
}

export interface CreateRequest {
  /** Every address given: the create call takes the first 1000, the rest follow in changes of 1000. */
  body: CreateNotifyWebhookBody;
  onProgress: (progress: Progress) => void;
}

export interface Created {
  webhook: NotifyWebhook;
  /** A change after the create was refused: the addresses sent before it, and why. */
  failure?: { sent: number; error: unknown };
}

/**
 * Creates the webhook with the first 1000 addresses, then adds the rest 1000 at a time. The webhook
 * exists once the first call succeeds, so a refused change afterwards is told, not thrown.
 */
async function createWebhook(accountId: string, { body, onProgress }: CreateRequest): Promise<Created> {
  const total = body.addresses.length;
  const [first = [], ...rest] = inChunks(body.addresses, PER_CALL);
  const webhook = await api(N.create, { accountId, body: { ...body, addresses: first } });
  let sent = first.length;
  onProgress({ sent, total });
  for (const add of rest) {
    try {
      await api(N.changeAddresses, { accountId, params: { webhookId: webhook.id }, body: { add } });
    } catch (error) {
      return { webhook, failure: { sent, error } };
    }
    sent += add.length;
    onProgress({ sent, total });
  }
  return { webhook };
}

export function useCreateWebhook(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateRequest) => createWebhook(accountId, request),
    onSuccess: async ({ failure }, { body }) => {
      if (failure) toast.error(T.partlyCreated(failure.sent, body.addresses.length, errorText(failure.error)));
      else toast.success(NotifyMessages.created);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.list(accountId) });
    },
  });
}

/** A change to one webhook: its success toast, then the webhook (its addresses and log too) and the list are read again. */
function useWebhookChange<V, R>(
  accountId: string,
  webhookId: string,
  call: (variables: V) => Promise<R>,
  successText: (result: R, variables: V) => string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result, variables) => toast.success(successText(result, variables)),
    // Also after a refusal: a change of many addresses may have been partly made.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookKeys.webhook(accountId, webhookId) }),
        queryClient.invalidateQueries({ queryKey: webhookKeys.list(accountId) }),
      ]),
  });
}

export const useSetWebhookStatus = (accountId: string, webhookId: string) =>
  useWebhookChange(
    accountId,
    webhookId,
    (status: NotifyWebhookStatus) => api(N.setStatus, { accountId, params: { webhookId }, body: { status } }),
    (webhook) => (webhook.status === 'ENABLED' ? NotifyMessages.enabled : NotifyMessages.disabled),
  );

export interface AddRequest {
  addresses: string[];
  onProgress: (progress: Progress) => void;
}

/** Adds addresses 1000 a call; answers how many of them were not watched before. */
async function addAddresses(accountId: string, webhookId: string, { addresses, onProgress }: AddRequest) {
  let sent = 0;
  let added = 0;
  for (const add of inChunks(addresses, PER_CALL)) {
    const result = await api(N.changeAddresses, { accountId, params: { webhookId }, body: { add } });
    sent += add.length;
    added += result.added;
    onProgress({ sent, total: addresses.length });
  }
  return added;
}

export const useAddAddresses = (accountId: string, webhookId: string) =>
  useWebhookChange(
    accountId,
    webhookId,
    (request: AddRequest) => addAddresses(accountId, webhookId, request),
    (added, { addresses }) => `${NotifyMessages.addressesUpdated} ${T.changed(added, addresses.length)}`,
  );

export const useRemoveAddress = (accountId: string, webhookId: string) =>
  useWebhookChange(
    accountId,
    webhookId,
    (address: string) => api(N.changeAddresses, { accountId, params: { webhookId }, body: { remove: [address] } }),
    () => NotifyMessages.addressesUpdated,
  );

export const useReplay = (accountId: string, webhookId: string) =>
  useWebhookChange(
    accountId,
    webhookId,
    (range: NotifyReplayBody) => api(N.replay, { accountId, params: { webhookId }, body: range }),
    () => NotifyMessages.replayStarted,
  );

/** The test delivery shows in the log too, so the log is read again once it has been answered. */
export function useTestWebhook(accountId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(N.test, { accountId, params: { webhookId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(accountId, webhookId) }),
  });
}

export function useDeleteWebhook(accountId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(N.remove, { accountId, params: { webhookId } }),
    onSuccess: async () => {
      toast.success(NotifyMessages.deleted);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.list(accountId) });
    },
  });
}
