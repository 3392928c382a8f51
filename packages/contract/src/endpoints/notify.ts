import { endpoint } from '../endpoint.ts';
import { AccountHeaders } from '../headers.ts';
import {
  CreateNotifyWebhookBody,
  NotifyAddressesBody,
  NotifyAddressesResult,
  NotifyAddressPage,
  NotifyAddressQuery,
  NotifyDeliveryList,
  NotifyDeliveryQuery,
  NotifyReplay,
  NotifyReplayBody,
  NotifyStatusBody,
  NotifyTestResult,
  NotifyWebhook,
  NotifyWebhookList,
  NotifyWebhookParams,
} from '../notify.ts';
import { Empty } from '../wrapper.ts';

const BASE = '/api/v1.0/notify/webhook';
const notifyCall = { access: 'account', tag: 'address-activity webhooks', headers: AccountHeaders } as const;

/** Address-activity webhooks (docs/api.md): owners and members of the account alike (docs/roles.md). */
export const notifyEndpoints = {
  create: endpoint({
    ...notifyCall,
    method: 'POST',
    path: BASE,
    body: CreateNotifyWebhookBody,
    response: NotifyWebhook,
  }),
  list: endpoint({ ...notifyCall, method: 'GET', path: BASE, response: NotifyWebhookList }),
  get: endpoint({
    ...notifyCall,
    method: 'GET',
    path: `${BASE}/:webhookId`,
    params: NotifyWebhookParams,
    response: NotifyWebhook,
  }),
  remove: endpoint({
    ...notifyCall,
    method: 'DELETE',
    path: `${BASE}/:webhookId`,
    params: NotifyWebhookParams,
    response: Empty,
  }),
  setStatus: endpoint({
    ...notifyCall,
    method: 'POST',
    path: `${BASE}/:webhookId/status`,
    params: NotifyWebhookParams,
    body: NotifyStatusBody,
    response: NotifyWebhook,
  }),
  /** Idempotent: adding a watched address or removing an unwatched one changes nothing. Effective from the next block. */
  changeAddresses: endpoint({
    ...notifyCall,
    method: 'PATCH',
    path: `${BASE}/:webhookId/addresses`,
    params: NotifyWebhookParams,
    body: NotifyAddressesBody,
    response: NotifyAddressesResult,
  }),
  listAddresses: endpoint({
    ...notifyCall,
    method: 'GET',
    path: `${BASE}/:webhookId/addresses`,
    params: NotifyWebhookParams,
    query: NotifyAddressQuery,
    response: NotifyAddressPage,
  }),
  /** The range's events delivered again (`replay: true`), against the addresses watched now. */
  replay: endpoint({
    ...notifyCall,
    method: 'POST',
    path: `${BASE}/:webhookId/replay`,
    params: NotifyWebhookParams,
    body: NotifyReplayBody,
    response: NotifyReplay,
  }),
  deliveries: endpoint({
    ...notifyCall,
    method: 'GET',
    path: `${BASE}/:webhookId/deliveries`,
    params: NotifyWebhookParams,
    query: NotifyDeliveryQuery,
    response: NotifyDeliveryList,
  }),
  /** A signed sample delivery (no activity, `test: true` in the log), sent now; its answer is returned. */
  test: endpoint({
    ...notifyCall,
    method: 'POST',
    path: `${BASE}/:webhookId/test`,
    params: NotifyWebhookParams,
    response: NotifyTestResult,
  }),
};
