import { type Static, Type } from '@sinclair/typebox';

/**
 * What a call costs is counted in compute units (CU), by the price class of its method (the table
 * of methods, rpc-methods.ts); the operator may change a class's units or set a method's own
 * (`npm run admin -- price cu METHOD_OR_CLASS N`). docs/api.md "Pricing" publishes the rules.
 */
export const PRICE_CLASSES = [
  /** Answered from the gateway's memory: the network's constants. */
  'free',
  /** An ordinary read: the head, state at a block, a block or transaction by hash, filters. */
  'read',
  /** eth_getLogs and eth_getFilterLogs: these units per started LOGS_BLOCKS_PER_UNIT blocks of the range. */
  'logs',
  /** eth_call, eth_estimateGas and eth_createAccessList with state or block overrides. */
  'override',
  /** eth_sendRawTransaction. */
  'send',
  /** Traces, simulations and the debug namespace's reads: the heaviest. */
  'trace',
  /** eth_subscribe and eth_unsubscribe. */
  'subscription',
  /** A subscription's notification, and an eth_getFilterChanges answer: these units per started KiB delivered. */
  'notification',
] as const;
export type PriceClass = (typeof PRICE_CLASSES)[number];

/** The units of each class when the operator has set none. */
export const DEFAULT_CLASS_COMPUTE_UNITS: Readonly<Record<PriceClass, number>> = {
  free: 0,
  read: 1,
  logs: 5,
  override: 5,
  send: 10,
  trace: 50,
  subscription: 1,
  notification: 1,
};

/**
 * A call answered from the gateway's cache costs its class's units unless the operator names what
 * it costs (`price cu cached N`): this name stands for that choice.
 */
export const CACHED_PRICE_NAME = 'cached';

/** eth_getLogs costs its class's units once per started this many blocks of its range... */
export const LOGS_BLOCKS_PER_UNIT = 1000;
/** ...and at most this many times (a range the gateway cannot work out costs once). */
export const LOGS_MAX_UNITS = 10;
/** A notification costs its class's units once per started this many bytes. */
export const NOTIFICATION_BYTES_PER_UNIT = 1024;

/** The units of an eth_getLogs over `blocks` blocks (null: a range not worked out, or one block hash). */
export function logsComputeUnits(perUnit: number, blocks: bigint | null): number {
  if (blocks === null || blocks <= 0n) return perUnit;
  const units = (blocks + BigInt(LOGS_BLOCKS_PER_UNIT) - 1n) / BigInt(LOGS_BLOCKS_PER_UNIT);
  return perUnit * Number(units > BigInt(LOGS_MAX_UNITS) ? BigInt(LOGS_MAX_UNITS) : units);
}

/** The units of a notification of `bytes` bytes. */
export const notificationComputeUnits = (perUnit: number, bytes: number) =>
  perUnit * Math.max(1, Math.ceil(bytes / NOTIFICATION_BYTES_PER_UNIT));

/** The price of a network's calls when the operator has set none: USD per million compute units. */
export const DEFAULT_USD_PER_MILLION_CU = '20';

/** USD per million compute units: at most 4 decimals (the price of one unit is kept to 10). */
export const USD_PER_MILLION_CU_PATTERN = '^\\d{1,6}(\\.\\d{1,4})?$';

/** GET /api/v1.0/rpc/pricing: what calls cost on each network, each method's units, and the forwarding fee. */
export const RpcPricing = Type.Object({
  networks: Type.Array(
    Type.Object({
      network: Type.String({ description: "the network's path, as in /api/v1.0/rpc/{network}" }),
      resourceName: Type.String(),
      usdPerMillionCu: Type.String({ description: 'USD per million compute units (decimal text)' }),
    }),
  ),
  methods: Type.Array(
    Type.Object({
      method: Type.String({ description: 'a method, or a namespace ending in *' }),
      computeUnits: Type.Integer({
        description: 'per call; for eth_getLogs and eth_getFilterLogs per started 1 000 blocks (at most 10 times)',
      }),
      priceClass: Type.String(),
    }),
  ),
  classes: Type.Array(Type.Object({ name: Type.String(), computeUnits: Type.Integer() })),
  /** Null: a call answered from the cache costs its class's units. */
  cachedComputeUnits: Type.Union([Type.Integer(), Type.Null()]),
  forwardingFeeUsd: Type.String({ description: 'USD per token forward (decimal text)' }),
});
export type RpcPricing = Static<typeof RpcPricing>;

/** A USD amount as decimal text with at most 2 decimals, as the cap and the Auto Pay limit are set. */
const UsdText = (description: string) =>
  Type.Union([Type.String({ pattern: '^\\d{1,7}(\\.\\d{1,2})?$', description }), Type.Null()]);

/**
 * The account's spending cap (Billing): the gateway refuses its calls once this month's RPC usage
 * reaches `monthlyCapUsd`; Auto Pay deposits at most `autoPayMonthlyMaxUsd` a month. Null: none.
 */
export const SpendingCapSetting = Type.Object({
  monthlyCapUsd: UsdText('USD; RPC calls stop when this month’s RPC usage reaches it'),
  autoPayMonthlyMaxUsd: UsdText('USD; Auto Pay deposits at most this much a calendar month'),
});
export type SpendingCapSetting = Static<typeof SpendingCapSetting>;

/** POST /api/v1.0/account/updateAccountSettings with settingName spendingCap: either or both; null clears one. */
export const SpendingCapFields = Type.Partial(SpendingCapSetting, { additionalProperties: false });
