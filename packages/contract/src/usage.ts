import { type Static, Type } from '@sinclair/typebox';
import { defaulted } from './endpoint.ts';
import { FORWARDING_NETWORKS, FORWARDING_RESOURCES, isNetwork } from './forwarding.ts';
import { isNotifyResource, NOTIFY_PREFIX, NOTIFY_RESOURCES } from './notify.ts';
import { findRpcNetwork, RPC_NETWORKS } from './rpc.ts';

/** The usage resources the gateway meters: one per RPC network (spec A §3, ARCHITECTURE §5). */
export const RPC_RESOURCES = RPC_NETWORKS.map((network) => network.resource);

/** spec A §8: what the charts fall back to when the resource list cannot be fetched. */
export const DEFAULT_USAGE_RESOURCES = [
  'RPC_API_POLYGON_MAINNET',
  'RPC_API_POLYGON_TESTNET',
  'RPC_API_ETHEREUM_MAINNET',
  'RPC_API_ETHEREUM_TESTNET',
] as const;

/** The price of one compute unit when the admin has set none, in USD (decimal text): DEFAULT_USD_PER_MILLION_CU. */
export const DEFAULT_REQUEST_PRICE_USD = '0.00002';

/** The fee of one token forward when the admin has set none, in USD (decimal text). */
export const DEFAULT_FORWARDING_FEE_USD = '0.05';

/** The fee of one address-activity delivery when the admin has set none, in USD (decimal text). */
export const DEFAULT_NOTIFY_DELIVERY_FEE_USD = '0.0001';

/**
 * Every billable resource: the gateway's, token forwarding's (one fee per transfer), then
 * address-activity webhooks' (one fee per delivery).
 */
export const BILLABLE_RESOURCES: readonly string[] = [...RPC_RESOURCES, ...FORWARDING_RESOURCES, ...NOTIFY_RESOURCES];

const FORWARDING_PREFIX = 'TOKEN_FORWARDING_';

/** Whether a usage resource counts token forwards (one fee per transfer), not RPC requests. */
export const isForwardingResource = (name: string) => name.startsWith(FORWARDING_PREFIX);

/** Whether a resource is priced per event (a forward, a delivery) rather than per compute unit. */
export const isPerEventResource = (name: string) => isForwardingResource(name) || isNotifyResource(name);

/** The price of one unit of a resource when the admin has set none. */
export const defaultPriceOf = (resource: string) =>
  isForwardingResource(resource)
    ? DEFAULT_FORWARDING_FEE_USD
    : isNotifyResource(resource)
      ? DEFAULT_NOTIFY_DELIVERY_FEE_USD
      : DEFAULT_REQUEST_PRICE_USD;

/** spec A §2: resource names display with underscores shown as spaces. */
export const displayResourceName = (name: string) => name.replace(/_/g, ' ');

/**
 * A resource as a person reads it, in the RPC page's network names (spec B §2): "Ethereum Sepolia
 * requests", "Polygon Mainnet token forwards"; undefined for a resource of no known network.
 */
export function resourceLabel(resource: string): string | undefined {
  const rpc = RPC_NETWORKS.find((network) => network.resource === resource);
  if (rpc) return `${rpc.name} requests`;
  const [kind, prefix] = isForwardingResource(resource)
    ? ['token forwards', FORWARDING_PREFIX]
    : isNotifyResource(resource)
      ? ['webhook deliveries', NOTIFY_PREFIX]
      : [];
  const network = prefix && resource.slice(prefix.length);
  if (!kind || !isNetwork(network)) return undefined;
  const info = FORWARDING_NETWORKS[network];
  const name = info.kind === 'evm' ? findRpcNetwork(info.rpcPath)?.name : undefined;
  return name ? `${name} ${kind}` : undefined;
}

/** A resource by its network's name where it has one ("Ethereum Sepolia requests"), else the spec's form. */
export const resourceTitle = (resource: string): string => resourceLabel(resource) ?? displayResourceName(resource);

/** spec A §2: usage charts leave out token forwarding resources (and webhook deliveries, priced per event too). */
export const isChartedUsageResource = (name: string) => !isPerEventResource(name);

/** A usage record is PENDING until the billing job posts it to the ledger, then BILLED. */
export const UsageStatus = Type.Union([Type.Literal('PENDING'), Type.Literal('BILLED')]);

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

export const UsageListQuery = Type.Object(
  {
    accountId: Type.Optional(Type.String({ format: 'uuid', description: 'must be the account in ebs-account-id' })),
    dateStart: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive (UTC)' })),
    dateEnd: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive (UTC)' })),
    resourceNameIn: Type.Optional(
      Type.String({ maxLength: 2000, description: 'resource names as a JSON array text, or separated by commas' }),
    ),
    limit: defaulted(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
    offset: defaulted(Type.Integer({ minimum: 0, default: 0 })),
    order: defaulted(Type.Unsafe<'asc' | 'desc'>({ type: 'string', enum: ['asc', 'desc'], default: 'desc' })),
  },
  { additionalProperties: false },
);
export type UsageListQuery = Static<typeof UsageListQuery>;

/** spec A §3 Resource usage record: the calls of one key to one resource on one day. */
export const ResourceUsageRecord = Type.Object({
  id: Type.String(),
  resourceName: Type.String(),
  date: Type.String({ pattern: DATE }),
  usage: Type.Integer({ description: 'requests (calls, and notifications delivered)' }),
  computeUnits: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the calls\' compute units (docs/api.md "Pricing"); null for token forwards, priced per forward',
  }),
  status: UsageStatus,
  price: Type.Number({ description: 'USD: computeUnits × unitPrice (usage × unitPrice for token forwards)' }),
  unitPrice: Type.Number({ description: 'USD per compute unit (per forward for token forwards)' }),
  apiKeyId: Type.Union([Type.String(), Type.Null()]),
});
export type ResourceUsageRecord = Static<typeof ResourceUsageRecord>;

export const ResourceUsageList = Type.Object({
  accountResourceUsage: Type.Array(ResourceUsageRecord),
  totalCount: Type.Integer(),
});
export type ResourceUsageList = Static<typeof ResourceUsageList>;

/** GET /api/v1.0/usage/api/billing/resource: the billable resources and the price of one unit. */
export const UsageResource = Type.Object({
  resourceName: Type.String(),
  description: Type.String(),
  unitPrice: Type.Number({ description: 'USD per compute unit (per forward for token forwards)' }),
});
export const UsageResourceList = Type.Array(UsageResource);
export type UsageResource = Static<typeof UsageResource>;
