import type { Endpoint } from '../endpoint.ts';

/** The identity: sign-up, sign-in, two-factor, third-party sign-in (/auth/...). */
export const identityEndpoints = {} satisfies Record<string, Endpoint>;
