import type { Endpoint } from '../endpoint.ts';

/** The deposits, auto pay, transactions, receipts and statements. */
export const billingEndpoints = {} satisfies Record<string, Endpoint>;
