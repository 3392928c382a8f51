import pg from 'pg';
import { type Db, openDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import type { Cleanup } from './stack.ts';

/** The PostgreSQL server of the benchmarks (trust auth on this machine); BENCH_DATABASE_URL names another. */
export const POSTGRES_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A migrated database of the bench's own on the PostgreSQL server, named after the suite and the
 * process so that runs never share one, dropped again by the clean-up (forced: a run stopped with
 * Ctrl-C may leave a connection open).
 */
export async function ownPostgres(cleanup: Cleanup, suite: string): Promise<{ url: string; db: Db }> {
  const name = `ebs_bench_${suite}_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  cleanup.add(() => admin(`drop database if exists ${name} with (force)`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString() });
  cleanup.add(() => db.destroy());
  await migrateToLatest(db);
  return { url: url.toString(), db };
}

/** A migrated PGlite database in a data directory, as the embedded default (`npm start`) keeps it. */
export async function ownPglite(cleanup: Cleanup, dataDir: string): Promise<Db> {
  const db = await openDatabase({ dataDir });
  cleanup.add(() => db.destroy());
  await migrateToLatest(db);
  return db;
}
