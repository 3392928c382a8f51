import type { Endpoint } from '../endpoint.ts';

/** The the JSON-RPC gateway. */
export const rpcEndpoints = {} satisfies Record<string, Endpoint>;
