import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Db, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<{ db: Db; close(): Promise<void> }>;
}

export const pglite: TestDatabase = {
  name: 'pglite',
  async open() {
    const db = await openDatabase({});
    await migrateToLatest(db);
    return { db, close: () => db.destroy() };
  },
};

/** A fresh, empty database on the PostgreSQL server at adminUrl, by URL, for tests that start whole server processes on it. */
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ebs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      // A plain drop waits for the pool's connections to finish closing; forcing it would kill
      // one mid-close and raise an error nobody listens to.
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      try {
        for (let attempt = 0; ; attempt++) {
          try {
            await again.query(`drop database if exists ${name}`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await again.end();
      }
    },
  };
}

/** A fresh database per test file on the PostgreSQL server, dropped afterwards: files never share state. */
const postgres = (adminUrl: string): TestDatabase => ({
  name: 'postgres',
  async open() {
    const created = await createPostgresDatabase(adminUrl);
    const db = await openDatabase({ url: created.url });
    await migrateToLatest(db);
    return {
      db,
      async close() {
        await db.destroy();
        await created.drop();
      },
    };
  },
});

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export const testDatabases: TestDatabase[] = [
  pglite,
  ...(process.env.TEST_DATABASE_URL ? [postgres(process.env.TEST_DATABASE_URL)] : []),
];
