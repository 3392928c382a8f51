// What other modules use of this module's store, and only that: they never import the store.
export { isKnownResource, listPrices, setPrice } from './prices.store.ts';
export type { UsageCount } from './usage.store.ts';
export { addUsage } from './usage.store.ts';
