import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packCounts } from '../modules/insight/latency-histogram.ts';
import { pglite } from '../testing/databases.ts';
import type { Db } from './database.ts';
import { migrateTo, migrateToLatest } from './migrate.ts';

const BEFORE = '2026_11_27_0201_alerts';
const histograms = [
  [7],
  [0, 3, 0, 5],
  [10 ** 15 + 1, 0, 2],
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9],
];

describe('migration 2026_11_27_0301_packed_latency', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // The test run's migrated database, taken back to the step before.
    ({ db, close } = await pglite.open());
    await migrateTo(db, BEFORE);
    // Rows of an account and key the test does not create: the foreign keys are not what it checks.
    await sql`set session_replication_role = replica`.execute(db);
    for (const [i, latency] of histograms.entries()) {
      await sql`insert into rpc_method_stats (account_id, period_start, period, api_key_id, network, method, calls, latency)
        values (gen_random_uuid(), now(), 'day', gen_random_uuid(), 'ethereum/mainnet', ${`m${i}`}, 1, ${latency}::bigint[])`.execute(
        db,
      );
    }
  });
  afterAll(() => close());

  const read = async () =>
    (
      await sql<{ latency: string }>`select latency::text as latency from rpc_method_stats order by method`.execute(db)
    ).rows.map((r) => r.latency);

  it('packs every histogram kept as an array into its number, and unpacks them going down', async () => {
    await migrateToLatest(db);
    expect(await read()).toEqual(histograms.map((h) => packCounts(h)));
    // Merged by adding, as a flush does.
    await sql`update rpc_method_stats set latency = latency + ${packCounts([1, 1])}::numeric where method = 'm1'`.execute(
      db,
    );
    expect((await read())[1]).toBe(packCounts([1, 4, 0, 5]));
    await migrateTo(db, BEFORE);
    expect(await read()).toEqual(['{7}', '{1,4,0,5}', `{${10 ** 15 + 1},0,2}`, `{${histograms[3]?.join(',')}}`]);
  });
});
