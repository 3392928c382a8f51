import { CACHED_PRICE_NAME, PRICE_CLASSES } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The most compute units a class, a method or a cached call may cost (the table's check). */
export const MAX_COMPUTE_UNITS = 1_000_000;

/** A JSON-RPC method's name: a namespace, an underscore, the rest (eth_call, debug_traceTransaction). */
const METHOD_NAME = /^[a-z][a-z0-9]*_[A-Za-z0-9_]+$/;
const MAX_METHOD_NAME = 100;

/**
 * Whether the operator may set the compute units of `name` (`price cu NAME N`): a price class, a
 * cached call (CACHED_PRICE_NAME), or a JSON-RPC method's name.
 */
export const isComputeUnitPriceName = (name: string): boolean =>
  (PRICE_CLASSES as readonly string[]).includes(name) ||
  name === CACHED_PRICE_NAME ||
  (name.length <= MAX_METHOD_NAME && METHOD_NAME.test(name));

/** Whether `units` is a number of compute units a name may cost: a whole number from 0 to MAX_COMPUTE_UNITS. */
export const isComputeUnitCount = (units: number): boolean =>
  Number.isInteger(units) && units >= 0 && units <= MAX_COMPUTE_UNITS;

/** The operator's compute units of classes, methods and cached calls, by name. */
export async function listComputeUnitPrices(db: Db): Promise<Array<{ name: string; computeUnits: number }>> {
  const rows = await db.selectFrom('compute_unit_prices').select(['name', 'compute_units']).orderBy('name').execute();
  return rows.map((r) => ({ name: r.name, computeUnits: r.compute_units }));
}

/** Sets what `name` costs in compute units, or with null forgets the operator's units (its default again). */
export async function setComputeUnits(db: Db, name: string, units: number | null): Promise<void> {
  if (!isComputeUnitPriceName(name)) throw new RangeError(`Not a price class, cached or a method: ${name}`);
  if (units === null) {
    await db.deleteFrom('compute_unit_prices').where('name', '=', name).execute();
    return;
  }
  if (!isComputeUnitCount(units))
    throw new RangeError(`Compute units are a whole number from 0 to ${MAX_COMPUTE_UNITS}`);
  await db
    .insertInto('compute_unit_prices')
    .values({ name, compute_units: units })
    .onConflict((c) => c.column('name').doUpdateSet({ compute_units: units, updated_at: sql`now()` }))
    .execute();
}
