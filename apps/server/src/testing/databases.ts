import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { type Db, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<{ db: Db; close(): Promise<void> }>;
}

/**
 * Where the test run's global setup (global-setup.ts) left a migrated database of each kind: a
 * PGlite data directory tarball, and the name of a PostgreSQL template database. Without them (a
 * test file run some other way) each database is migrated from nothing.
 */
export const TEMPLATE_ENV = {
  pglite: 'EBS_TEST_PGLITE_TEMPLATE',
  postgres: 'EBS_TEST_POSTGRES_TEMPLATE',
} as const;

export const pglite: TestDatabase = {
  name: 'pglite',
  async open() {
    const template = process.env[TEMPLATE_ENV.pglite];
    const db = await openDatabase(template ? { loadDataDir: new Blob([await readFile(template)]) } : {});
    if (!template) await migrateToLatest(db);
    return { db, close: () => db.destroy() };
  },
};

/**
 * A fresh database on the PostgreSQL server at adminUrl, by URL: empty, or a copy of the template
 * database named. Tests that start whole server processes take an empty one, which they migrate.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ebs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
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
    const template = process.env[TEMPLATE_ENV.postgres];
    const created = await createPostgresDatabase(adminUrl, template);
    const db = await openDatabase({ url: created.url });
    if (!template) await migrateToLatest(db);
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
