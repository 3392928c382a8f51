import type { Endpoint } from '../endpoint.ts';

/** The payment cards and the card provider's events. */
export const cardEndpoints = {} satisfies Record<string, Endpoint>;
