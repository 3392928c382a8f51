import type { Endpoint } from '../endpoint.ts';

/** The support tickets. */
export const supportEndpoints = {} satisfies Record<string, Endpoint>;
