import type { Endpoint } from '../endpoint.ts';

/** The public configuration, health, the development outbox. */
export const systemEndpoints = {} satisfies Record<string, Endpoint>;
