// The forwarding module's face: what the rest of the server may use of it. Everything else in the folder is its own.

// What address-activity webhooks share with token forwarding: the chains, the lease owners, signed delivery.
export { ChainCallError, type ChainRpc, ForwardingChains } from './chain.ts';
export { forwardingRoutes } from './forwarding.routes.ts';
export { webhookFigures } from './forwarding.service.ts';
export type { Forwarding } from './forwarding.ts';
export { buildForwarding } from './forwarding.ts';
export { isGoneOwner, newLeaseOwner } from './lease-owner.ts';
export { postWebhook, type WebhookResponse } from './webhooks/webhook-delivery.ts';
export { newWebhookId, webhookHeaders } from './webhooks/webhook-signature.ts';
export { checkWebhookUrl, parseWebhookUrl, WebhookTargetError } from './webhooks/webhook-target.ts';
