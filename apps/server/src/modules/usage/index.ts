// The usage module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { unbilledUsageOf } from './unbilled-usage.ts';
export { usageRoutes } from './usage.routes.ts';
export type { UsageCount, UsageDay } from './usage.service.ts';
export {
  addUsage,
  closeUsageRecords,
  isKnownResource,
  keyRequestsOn,
  listPrices,
  lockOpenUsage,
  openUsageDays,
  setPrice,
  spendOn,
  utcDay,
} from './usage.service.ts';
