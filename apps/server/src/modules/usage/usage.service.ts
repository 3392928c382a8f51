// What other modules use of this module's store, and only that: they never import the store.
export { isKnownResource, listPrices, setPrice } from './prices.store.ts';
export type { OpenUsageTotal, UsageCount, UsageDay } from './usage.store.ts';
export {
  addUsage,
  closeUsageRecords,
  keyRequestsOn,
  lockOpenUsage,
  openUsageDays,
  spendOn,
} from './usage.store.ts';

/** The UTC day (YYYY-MM-DD) of an instant: usage is counted and billed per UTC day. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
