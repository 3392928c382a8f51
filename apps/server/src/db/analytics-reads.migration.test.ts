import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packCounts } from '../modules/insight/latency-histogram.ts';
import { pglite } from '../testing/databases.ts';
import type { Db } from './database.ts';
import { migrateTo, migrateToLatest } from './migrate.ts';

const BEFORE = '2026_11_27_0201_alerts';
const ACCOUNT = '00000000-0000-4000-8000-00000000000a';
const DAY = new Date('2026-11-20T00:00:00Z');
const histograms = [
  [7],
  [0, 3, 0, 5],
  [10 ** 15 + 1, 0, 2],
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9],
];

describe('migration 2026_11_27_0301_analytics_reads', () => {
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
        values (${ACCOUNT}, ${DAY}, 'day', ${ACCOUNT}, 'ethereum/mainnet', ${`m${i}`}, 1, ${latency}::bigint[])`.execute(
        db,
      );
    }
    // One method's day on a second network, and an hour (hours get no row over all networks).
    await sql`insert into rpc_method_stats (account_id, period_start, period, api_key_id, network, method, calls, rpc_errors, latency)
      values (${ACCOUNT}, ${DAY}, 'day', ${ACCOUNT}, 'bsc/mainnet', 'm1', 4, 2, ${[1, 1]}::bigint[]),
        (${ACCOUNT}, ${DAY}, 'hour', ${ACCOUNT}, 'bsc/mainnet', 'm1', 4, 2, ${[1, 1]}::bigint[])`.execute(db);
  });
  afterAll(() => close());

  const read = async (network: string) =>
    (
      await sql<{ latency: string }>`select latency::text as latency from rpc_method_stats
        where network = ${network} and period = 'day' order by method`.execute(db)
    ).rows.map((r) => r.latency);

  it('packs every histogram kept as an array into its number, sums the days over networks, and undoes both going down', async () => {
    await migrateToLatest(db);
    expect(await read('ethereum/mainnet')).toEqual(histograms.map((h) => packCounts(h)));
    // The day of m1 over both networks: its histograms and counts added.
    expect(await read('*')).toEqual(histograms.map((h, i) => packCounts(i === 1 ? [1, 4, 0, 5] : h)));
    const overAll = await sql<{ calls: string; errors: string; rows: string }>`select sum(calls)::text as calls,
      sum(rpc_errors)::text as errors, count(*)::text as rows from rpc_method_stats where network = '*'`.execute(db);
    expect(overAll.rows[0]).toEqual({ calls: '8', errors: '2', rows: '4' });
    // Merged by adding, as a flush does.
    await sql`update rpc_method_stats set latency = latency + ${packCounts([1, 1])}::numeric
      where method = 'm1' and network = 'ethereum/mainnet'`.execute(db);
    expect((await read('ethereum/mainnet'))[1]).toBe(packCounts([1, 4, 0, 5]));
    await migrateTo(db, BEFORE);
    expect(await read('ethereum/mainnet')).toEqual([
      '{7}',
      '{1,4,0,5}',
      `{${10 ** 15 + 1},0,2}`,
      `{${histograms[3]?.join(',')}}`,
    ]);
    expect(await read('*')).toEqual([]);
  });
});
