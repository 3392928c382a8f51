import type { Endpoint } from '../endpoint.ts';

/** The token forwarding wallets, destinations, webhooks. */
export const forwardingEndpoints = {} satisfies Record<string, Endpoint>;
