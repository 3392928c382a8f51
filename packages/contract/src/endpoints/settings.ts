import type { Endpoint } from '../endpoint.ts';

/** The operator settings read by the console. */
export const settingEndpoints = {} satisfies Record<string, Endpoint>;
