import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { isComputeUnitPriceName, listComputeUnitPrices, setComputeUnits } from './compute-unit-prices.store.ts';

describe('names whose compute units the operator may set', () => {
  it('takes the price classes, cached and JSON-RPC method names', () => {
    const method100 = `eth_${'a'.repeat(96)}`;
    for (const name of ['read', 'trace', 'notification', 'cached', 'eth_call', 'debug_traceTransaction', method100]) {
      expect(isComputeUnitPriceName(name), name).toBe(true);
    }
  });

  it('refuses anything else', () => {
    const method101 = `eth_${'a'.repeat(97)}`;
    for (const name of [
      '',
      'Read',
      'eth',
      'eth_',
      'Eth_call',
      '1eth_call',
      'eth_call;drop',
      'eth call',
      'eth-call',
      method101,
    ]) {
      expect(isComputeUnitPriceName(name), name).toBe(false);
    }
  });
});

describe.each(testDatabases)("the operator's compute units on $name", (database) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close());

  it('sets, changes, lists by name and removes a class’s, a method’s and a cached call’s units', async () => {
    await setComputeUnits(db, 'trace', 40);
    await setComputeUnits(db, 'eth_getProof', 3);
    await setComputeUnits(db, 'cached', 0);
    await setComputeUnits(db, 'trace', 1_000_000);
    expect(await listComputeUnitPrices(db)).toEqual([
      { name: 'cached', computeUnits: 0 },
      { name: 'eth_getProof', computeUnits: 3 },
      { name: 'trace', computeUnits: 1_000_000 },
    ]);
    await setComputeUnits(db, 'trace', null);
    await setComputeUnits(db, 'cached', null);
    await setComputeUnits(db, 'eth_getProof', null);
    await setComputeUnits(db, 'read', null);
    expect(await listComputeUnitPrices(db)).toEqual([]);
  });

  it('refuses a bad name and units that are not a whole number from 0 to 1 000 000', async () => {
    await expect(setComputeUnits(db, 'Bad Name', 1)).rejects.toThrow('Not a price class');
    await expect(setComputeUnits(db, 'eth', null)).rejects.toThrow('Not a price class');
    for (const units of [-1, 1.5, 1_000_001, Number.NaN]) {
      await expect(setComputeUnits(db, 'read', units), String(units)).rejects.toThrow('whole number');
    }
    expect(await listComputeUnitPrices(db)).toEqual([]);
  });
});
