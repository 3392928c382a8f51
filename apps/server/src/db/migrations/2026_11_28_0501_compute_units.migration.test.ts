import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usagePriceOf } from '../../modules/usage/index.ts';
import { testDatabases } from '../../testing/databases.ts';
import type { Db } from '../database.ts';
import { migrateTo } from '../migrate.ts';

const BEFORE = '2026_11_28_0401_rpc_status_hours';
const THIS = '2026_11_28_0501_compute_units';
const ACCOUNT = '00000000-0000-4000-8000-00000000000b';
const KEY = '00000000-0000-4000-8000-00000000000c';

/** Records as the gateway and the forwarding engine wrote them before compute units. */
const RECORDS = [
  {
    resource: 'RPC_API_ETHEREUM_MAINNET',
    key: KEY,
    date: '2026-11-20',
    usage: 1000,
    unitPrice: '0.00002',
    status: 'BILLED',
  },
  {
    resource: 'RPC_API_BSC_MAINNET',
    key: KEY,
    date: '2026-11-21',
    usage: 123457,
    unitPrice: '0.0000123',
    status: 'PENDING',
  },
  {
    resource: 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA',
    key: null,
    date: '2026-11-21',
    usage: 3,
    unitPrice: '0.05',
    status: 'PENDING',
  },
];

describe.each(testDatabases)(`migration ${THIS} on $name`, (database) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // The test run's migrated database, taken back to the step before.
    ({ db, close } = await database.open());
    await migrateTo(db, BEFORE);
    // Rows of an account and key the test does not create: the foreign keys are not what it checks.
    await db.connection().execute(async (one) => {
      await sql`set session_replication_role = replica`.execute(one);
      for (const r of RECORDS) {
        await sql`insert into account_resource_usage (account_id, api_key_id, resource_name, date, usage, unit_price, status)
          values (${ACCOUNT}, ${r.key}, ${r.resource}, ${r.date}, ${r.usage}, ${r.unitPrice}, ${r.status})`.execute(
          one,
        );
      }
      await sql`set session_replication_role = default`.execute(one);
    });
  });
  afterAll(() => close());

  const prices = async () =>
    (
      await sql<{
        resource: string;
        price: string;
      }>`select resource_name as resource, (usage * unit_price)::text as price
        from account_resource_usage order by resource_name`.execute(db)
    ).rows;

  it("gives each RPC record its calls as units and none to token forwards, so that no record's price changes", async () => {
    const before = await prices();
    await migrateTo(db, THIS);
    const after = await sql<{ resource: string; units: string | null; price: string }>`select resource_name as resource,
        compute_units::text as units, ${usagePriceOf('u')}::text as price
      from account_resource_usage u order by resource_name`.execute(db);
    expect(after.rows).toEqual([
      { resource: 'RPC_API_BSC_MAINNET', units: '123457', price: before[0]?.price },
      { resource: 'RPC_API_ETHEREUM_MAINNET', units: '1000', price: before[1]?.price },
      { resource: 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA', units: null, price: before[2]?.price },
    ]);
    expect(after.rows.map((r) => r.price)).toEqual(['1.5185211000', '0.0200000000', '0.1500000000']);
  });

  it('keeps the operator’s compute units of a name within 0 to 1 000 000, and undoes both going down', async () => {
    await migrateTo(db, THIS);
    await sql`insert into compute_unit_prices (name, compute_units) values ('read', 0), ('eth_call', 1000000)`.execute(
      db,
    );
    await expect(
      sql`insert into compute_unit_prices (name, compute_units) values ('trace', 1000001)`.execute(db),
    ).rejects.toThrow(/check constraint/);
    await expect(
      sql`insert into compute_unit_prices (name, compute_units) values ('send', -1)`.execute(db),
    ).rejects.toThrow(/check constraint/);
    const kept = await sql<{ name: string; units: number }>`select name, compute_units as units from compute_unit_prices
      order by name`.execute(db);
    expect(kept.rows).toEqual([
      { name: 'eth_call', units: 1000000 },
      { name: 'read', units: 0 },
    ]);

    await migrateTo(db, BEFORE);
    const columns = await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_name = 'account_resource_usage' and column_name = 'compute_units'`.execute(db);
    expect(columns.rows).toEqual([]);
    const table = await sql<{ name: string | null }>`select to_regclass('compute_unit_prices')::text as name`.execute(
      db,
    );
    expect(table.rows).toEqual([{ name: null }]);
    expect(await prices()).toHaveLength(3);
  });
});
