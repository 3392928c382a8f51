import type { Endpoint } from '../endpoint.ts';

/** The the operator's command line over HTTP. */
export const adminEndpoints = {} satisfies Record<string, Endpoint>;
