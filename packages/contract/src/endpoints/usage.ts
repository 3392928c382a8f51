import type { Endpoint } from '../endpoint.ts';

/** The usage and prices. */
export const usageEndpoints = {} satisfies Record<string, Endpoint>;
