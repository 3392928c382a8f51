// The usage module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export {
  isPriceVerb,
  PRICE_VERBS,
  PriceCommandError,
  type PriceCommandResult,
  type PriceVerb,
  runPriceCommand,
} from './price-commands.ts';
export { unbilledUsageOf } from './unbilled-usage.ts';
export { usageRoutes } from './usage.routes.ts';
export type { NetworkPrice, UsageCount, UsageDay } from './usage.service.ts';
export {
  addUsage,
  closeUsageRecords,
  forwardingFee,
  isComputeUnitPriceName,
  isKnownResource,
  keyRequestsOn,
  listComputeUnitPrices,
  listPrices,
  lockOpenUsage,
  MAX_COMPUTE_UNITS,
  networkPrices,
  openUsageDays,
  rpcSpendOfMonth,
  setComputeUnits,
  setPrice,
  spendOn,
  utcDay,
} from './usage.service.ts';
export { isRpcUsageOf, usagePriceOf } from './usage-price.ts';
