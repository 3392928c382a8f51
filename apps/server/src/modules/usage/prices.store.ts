import { BILLABLE_RESOURCES, defaultPriceOf } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The billable resources: the gateway's requests and token forwarding's transfers. */
export const isKnownResource = (name: string) => BILLABLE_RESOURCES.includes(name);

/** The price of one unit of a resource, as decimal text: the operator's, or the default. */
export const unitPriceOf = (resource: string) =>
  sql<string>`coalesce((select p.unit_price from resource_prices p where p.resource_name = ${resource}),
    ${defaultPriceOf(resource)}::numeric)`;

/** numeric(20, 10) text without the trailing zeros: 0.0000200000 → 0.00002. */
const trimZeros = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

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

/** `price set RESOURCE USD`: applies to usage recorded from now on; billed records keep theirs. */
export async function setPrice(db: Db, resource: string, unitPrice: string): Promise<void> {
  await db
    .insertInto('resource_prices')
    .values({ resource_name: resource, unit_price: unitPrice })
    .onConflict((c) => c.column('resource_name').doUpdateSet({ unit_price: unitPrice, updated_at: sql`now()` }))
    .execute();
}
