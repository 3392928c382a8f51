// The forwarding module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { forwardingRoutes } from './forwarding.routes.ts';
export { webhookFigures } from './forwarding.service.ts';
export type { Forwarding } from './forwarding.ts';
export { buildForwarding } from './forwarding.ts';
