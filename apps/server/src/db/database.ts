import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseTarget {
  /** PostgreSQL connection string; without it, PGlite. */
  url?: string;
  /** PGlite data directory; without it (and without url), an in-memory database. */
  dataDir?: string;
  /** A PGlite data directory tarball to start from (a restore); dataDir must hold no database yet. */
  loadDataDir?: Blob;
}

const embedded = new WeakMap<Db, PGlite>();

/** The PGlite instance behind a database opened here; undefined on PostgreSQL. */
export const embeddedDatabase = (db: Db): PGlite | undefined => embedded.get(db);

// numeric (1700) and bigint (20) stay strings: money is decimal text, never a float.
pg.types.setTypeParser(1700, (v) => v);
pg.types.setTypeParser(20, (v) => v);

export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  if (target.url) {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target.url, max: 10 }) }),
    });
  }
  let dataDir: string | undefined;
  if (target.dataDir) {
    dataDir = path.join(target.dataDir, 'pglite');
    await mkdir(dataDir, { recursive: true });
  }
  // Loaded only for the embedded database: a server on PostgreSQL never needs them.
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
  ]);
  const pglite = await PGlite.create({ ...(dataDir && { dataDir }), loadDataDir: target.loadDataDir });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  embedded.set(db, pglite);
  return db;
}
