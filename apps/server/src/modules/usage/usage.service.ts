// What other modules use of this module's store, and only that: they never import the store.
export {
  isComputeUnitPriceName,
  listComputeUnitPrices,
  MAX_COMPUTE_UNITS,
  setComputeUnits,
} from './compute-unit-prices.store.ts';
export {
  forwardingFee,
  isKnownResource,
  listPrices,
  type NetworkPrice,
  networkPrices,
  setPrice,
} from './prices.store.ts';
export type { OpenUsageTotal, UsageCount, UsageDay } from './usage.store.ts';
export { addUsage, closeUsageRecords, lockOpenUsage, openUsageDays } from './usage.store.ts';
export { keyRequestsOn, rpcSpendOfMonth, spendOn } from './usage-spend.store.ts';

/** The UTC day (YYYY-MM-DD) of an instant: usage is counted and billed per UTC day. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
