// What other modules read of the gateway's insight: the alerts' recent error rate.
export { recentCallsSince } from './recent-calls.store.ts';
