import {
  BILLABLE_RESOURCES,
  DEFAULT_USD_PER_MILLION_CU,
  defaultPriceOf,
  FORWARDING_RESOURCES,
  isPerEventResource,
  RPC_NETWORKS,
  RPC_RESOURCES,
  USD_PER_MILLION_CU_PATTERN,
} from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The billable resources: the gateway's requests and token forwarding's transfers. */
export const isKnownResource = (name: string) => BILLABLE_RESOURCES.includes(name);

/**
 * The price of one unit of a resource, as decimal text: the operator's, or the default. A unit is
 * a compute unit of an RPC resource, a forward of a token forwarding one.
 */
export const unitPriceOf = (resource: string) =>
  sql<string>`coalesce((select p.unit_price from resource_prices p where p.resource_name = ${resource}),
    ${defaultPriceOf(resource)}::numeric)`;

/** numeric(20, 10) text without the trailing zeros: 0.0000200000 → 0.00002. */
const trimZeros = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

const PER_MILLION_CU = new RegExp(USD_PER_MILLION_CU_PATTERN);
/** A fee per forward: at most 10 digits and 10 decimals, as numeric(20, 10) holds. */
const PER_FORWARD = /^\d{1,10}(\.\d{1,10})?$/;

/**
 * Whether `price` is a price the operator may set for a resource: USD per million compute units
 * for an RPC resource (USD_PER_MILLION_CU_PATTERN), USD per event for a token forwarding (a
 * forward) or address-activity (a delivery) one.
 */
export const isPriceText = (resource: string, price: string) =>
  (isPerEventResource(resource) ? PER_FORWARD : PER_MILLION_CU).test(price);

/** Every billable resource with its unit price (decimal text), in the networks' order. */
export async function listPrices(db: Db): Promise<Array<{ resourceName: string; unitPrice: string }>> {
  const rows = await db
    .selectFrom('resource_prices')
    .select(['resource_name', sql<string>`unit_price::text`.as('unit_price')])
    .execute();
  const set = new Map(rows.map((r) => [r.resource_name, trimZeros(r.unit_price)]));
  return BILLABLE_RESOURCES.map((resourceName) => ({
    resourceName,
    unitPrice: set.get(resourceName) ?? defaultPriceOf(resourceName),
  }));
}

export interface NetworkPrice {
  /** The network's path, as in /api/v1.0/rpc/{network}. */
  network: string;
  resourceName: string;
  /** USD per million compute units, decimal text without trailing zeros. */
  usdPerMillionCu: string;
}

/** Each RPC network's price in USD per million compute units, in the networks' order. */
export async function networkPrices(db: Db): Promise<NetworkPrice[]> {
  const rows = await db
    .selectFrom('resource_prices')
    // numeric × 10⁶ is exact: the unit price's 10 decimals become at most 4 (and the 6 zeros trimmed).
    .select(['resource_name', sql<string>`(unit_price * 1000000)::text`.as('per_million')])
    .where('resource_name', 'in', RPC_RESOURCES)
    .execute();
  const set = new Map(rows.map((r) => [r.resource_name, trimZeros(r.per_million)]));
  return RPC_NETWORKS.map((network) => ({
    network: network.path,
    resourceName: network.resource,
    usdPerMillionCu: set.get(network.resource) ?? DEFAULT_USD_PER_MILLION_CU,
  }));
}

/**
 * The fee of one token forward (USD, decimal text). Every forwarding network costs the default
 * unless the operator prices one apart (`price set TOKEN_FORWARDING_… USD`): this is the first
 * network's (FORWARDING_RESOURCES order), which `price list` shows beside any other.
 */
export async function forwardingFee(db: Db): Promise<string> {
  const resource = FORWARDING_RESOURCES[0] ?? '';
  const row = await db
    .selectFrom('resource_prices')
    .select(sql<string>`unit_price::text`.as('unit_price'))
    .where('resource_name', '=', resource)
    .executeTakeFirst();
  return row ? trimZeros(row.unit_price) : defaultPriceOf(resource);
}

/**
 * `price set RESOURCE PRICE`: an RPC resource's price in USD per million compute units, kept as
 * the price of one unit (÷ 10⁶, exact: 4 decimals become 10); a token forwarding resource's fee in
 * USD per forward, an address-activity one's per delivery. Applies to usage recorded from now on; recorded usage keeps its price.
 */
export async function setPrice(db: Db, resource: string, price: string): Promise<void> {
  if (!isKnownResource(resource)) throw new RangeError(`Unknown resource ${resource}`);
  if (!isPriceText(resource, price)) throw new RangeError(`Not a price of ${resource}: ${price}`);
  const unitPrice = isPerEventResource(resource)
    ? sql<string>`${price}::numeric`
    : sql<string>`${price}::numeric / 1000000`;
  await db
    .insertInto('resource_prices')
    .values({ resource_name: resource, unit_price: unitPrice })
    .onConflict((c) =>
      c.column('resource_name').doUpdateSet({ unit_price: sql`excluded.unit_price`, updated_at: sql`now()` }),
    )
    .execute();
}
