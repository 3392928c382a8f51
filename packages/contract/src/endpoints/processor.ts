import type { Endpoint } from '../endpoint.ts';

/** The the built-in local card processor. */
export const processorEndpoints = {} satisfies Record<string, Endpoint>;
