import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { insertOwnedAccount } from '../../testing/owned-account.ts';
import { insertKey } from '../keys/keys.test-kit.ts';
import { addUsage, listUsage } from './usage.store.ts';

const DAY = '2026-11-20';
const PAGE = { limit: 10, offset: 0, order: 'asc' } as const;

describe.each(testDatabases)('usage records and their compute units on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let n = 0;
  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close());

  const holder = async () => {
    const accountId = await insertOwnedAccount(db, `usage-units-${++n}`);
    const owner = await db
      .selectFrom('account_members')
      .select('user_id')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    const key = await insertKey(db, { accountId, name: 'k', keyHash: `units-${n}`, createdBy: owner.user_id });
    return { accountId, apiKeyId: key.id };
  };
  const records = async (accountId: string) =>
    (await listUsage(db, accountId, PAGE)).accountResourceUsage.map((r) => ({
      resource: r.resourceName,
      usage: r.usage,
      computeUnits: r.computeUnits,
      price: r.price,
    }));

  it('adds the compute units of each flush to the open record and prices it by them', async () => {
    const { accountId, apiKeyId } = await holder();
    const count = { accountId, apiKeyId, resource: 'RPC_API_ETHEREUM_MAINNET', date: DAY };
    await addUsage(db, [{ ...count, usage: 10, computeUnits: 55 }]);
    await addUsage(db, [{ ...count, usage: 5, computeUnits: 250 }]);
    // A count that names no units costs one a call.
    await addUsage(db, [{ ...count, usage: 2, computeUnits: null }]);
    expect(await records(accountId)).toEqual([
      { resource: 'RPC_API_ETHEREUM_MAINNET', usage: 17, computeUnits: 307, price: 0.00614 },
    ]);
  });

  it('keeps no units for token forwards, priced per forward, whatever a caller passes', async () => {
    const { accountId } = await holder();
    const count = { accountId, apiKeyId: null, resource: 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA', date: DAY };
    await addUsage(db, [{ ...count, usage: 1, computeUnits: null }]);
    await addUsage(db, [{ ...count, usage: 1, computeUnits: 40 }]);
    expect(await records(accountId)).toEqual([
      { resource: 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA', usage: 2, computeUnits: null, price: 0.1 },
    ]);
    const stored = await db
      .selectFrom('account_resource_usage')
      .select('compute_units')
      .where('account_id', '=', accountId)
      .execute();
    expect(stored).toEqual([{ compute_units: null }]);
  });

  it('counts a record opened without units (by a process before compute units) one unit a call when units are added', async () => {
    const { accountId, apiKeyId } = await holder();
    await sql`insert into account_resource_usage (account_id, api_key_id, resource_name, date, usage, unit_price)
      values (${accountId}, ${apiKeyId}, 'RPC_API_BSC_MAINNET', ${DAY}, 100, 0.00002)`.execute(db);
    expect(await records(accountId)).toEqual([
      { resource: 'RPC_API_BSC_MAINNET', usage: 100, computeUnits: 100, price: 0.002 },
    ]);
    await addUsage(db, [
      { accountId, apiKeyId, resource: 'RPC_API_BSC_MAINNET', date: DAY, usage: 1, computeUnits: 50 },
    ]);
    expect(await records(accountId)).toEqual([
      { resource: 'RPC_API_BSC_MAINNET', usage: 101, computeUnits: 150, price: 0.003 },
    ]);
  });

  it('opens a new record for units counted after the day was billed', async () => {
    const { accountId, apiKeyId } = await holder();
    const count = { accountId, apiKeyId, resource: 'RPC_API_POLYGON_MAINNET', date: DAY };
    await addUsage(db, [{ ...count, usage: 3, computeUnits: 30 }]);
    await db
      .updateTable('account_resource_usage')
      .set({ status: 'BILLED' })
      .where('account_id', '=', accountId)
      .execute();
    await addUsage(db, [{ ...count, usage: 1, computeUnits: 5 }]);
    const rows = (await listUsage(db, accountId, PAGE)).accountResourceUsage;
    expect(rows.map((r) => [r.status, r.usage, r.computeUnits]).sort()).toEqual([
      ['BILLED', 3, 30],
      ['PENDING', 1, 5],
    ]);
  });
});
