// What other modules read of the gateway's insight: the alerts' recent error rate, the key id of
// the figures of all of an account's keys and networks, and how a histogram is packed (the
// benchmark seeds them).
export { PACKED_BUCKET_DIGITS } from './latency-histogram.ts';
export { ALL_KEYS, ALL_NETWORKS } from './method-stats.store.ts';
export { recentCallsSince } from './recent-calls.store.ts';
