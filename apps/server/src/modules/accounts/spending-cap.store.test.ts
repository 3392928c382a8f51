import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { insertOwnedAccount } from '../../testing/owned-account.ts';
import { findSpendingCap, listSpendingCaps, spendingCapsOf, updateSpendingCap } from './spending-cap.store.ts';

describe.each(testDatabases)('spending cap store on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close?.());

  it('answers the caps of the capped accounts among those asked, with 2 decimals', async () => {
    const capped = await insertOwnedAccount(db, `capped-${randomUUID()}`);
    const uncapped = await insertOwnedAccount(db, `uncapped-${randomUUID()}`);
    const elsewhere = await insertOwnedAccount(db, `elsewhere-${randomUUID()}`);
    await updateSpendingCap(db, capped, { monthlyCapUsd: '25' });
    await updateSpendingCap(db, uncapped, { autoPayMonthlyMaxUsd: '100.5' });
    await updateSpendingCap(db, elsewhere, { monthlyCapUsd: '9999999.99' });

    expect(await spendingCapsOf(db, [capped, uncapped, randomUUID()])).toEqual(new Map([[capped, '25.00']]));
    expect(await spendingCapsOf(db, [])).toEqual(new Map());
    const all = await listSpendingCaps(db);
    expect([all.get(capped), all.get(elsewhere), all.has(uncapped)]).toEqual(['25.00', '9999999.99', false]);
  });

  it('saves the values given, keeps the others and clears one given as null', async () => {
    const id = await insertOwnedAccount(db, `saved-${randomUUID()}`);
    expect(await findSpendingCap(db, id)).toEqual({ monthlyCapUsd: null, autoPayMonthlyMaxUsd: null });
    expect(await updateSpendingCap(db, id, { monthlyCapUsd: '40', autoPayMonthlyMaxUsd: '0.01' })).toEqual({
      monthlyCapUsd: '40.00',
      autoPayMonthlyMaxUsd: '0.01',
    });
    expect(await updateSpendingCap(db, id, { monthlyCapUsd: null })).toEqual({
      monthlyCapUsd: null,
      autoPayMonthlyMaxUsd: '0.01',
    });
    expect(await spendingCapsOf(db, [id])).toEqual(new Map());
    expect(await updateSpendingCap(db, randomUUID(), { monthlyCapUsd: '1' })).toBeUndefined();
  });
});
