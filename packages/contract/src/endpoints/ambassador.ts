import type { Endpoint } from '../endpoint.ts';

/** The the ambassador programme. */
export const ambassadorEndpoints = {} satisfies Record<string, Endpoint>;
