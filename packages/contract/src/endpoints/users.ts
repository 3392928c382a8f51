import type { Endpoint } from '../endpoint.ts';

/** The the signed-in user (/api/v1.0/user...). */
export const userEndpoints = {} satisfies Record<string, Endpoint>;
