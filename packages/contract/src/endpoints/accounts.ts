import type { Endpoint } from '../endpoint.ts';

/** The accounts, members, account settings, signing secret. */
export const accountEndpoints = {} satisfies Record<string, Endpoint>;
