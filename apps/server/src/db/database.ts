import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
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

/**
 * PostgreSQL's shared buffers in the embedded database. PGlite's default is PostgreSQL's 128 MB,
 * all of it resident in the server process; the console's working set is far smaller.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * The database in PGlite's data directory that holds the console: PGlite 0.3 connected to
 * template1 by default and every data directory made before 0.4 (whose default is postgres) has
 * its tables there, so the console stays there.
 */
const PGLITE_DATABASE = 'template1';

/**
 * Creates an empty PGlite data directory (its initdb) in a process of its own: initdb in
 * WebAssembly grows the process to about 800 MB, which the server would keep for its whole life.
 * It is made beside `dataDir` and renamed into place, so a start that stops halfway leaves no
 * half-made database to open next time.
 */
async function initDataDir(dataDir: string): Promise<void> {
  const making = `${dataDir}.new-${randomBytes(4).toString('hex')}`;
  const script =
    'const [url, dir] = process.argv.slice(1); const { PGlite } = await import(url); ' +
    'const db = await PGlite.create({ dataDir: dir }); await db.close();';
  try {
    await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, import.meta.resolve('@electric-sql/pglite'), making],
      { timeout: 120_000 },
    );
    // Replaces the empty folder made for it; a folder with anything in it is refused (ENOTEMPTY).
    await rename(making, dataDir);
  } finally {
    await rm(making, { recursive: true, force: true });
  }
}

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
  if (dataDir && !target.loadDataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) await initDataDir(dataDir);
  const pglite = await PGlite.create({
    ...(dataDir && { dataDir }),
    loadDataDir: target.loadDataDir,
    database: PGLITE_DATABASE,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  embedded.set(db, pglite);
  return db;
}
