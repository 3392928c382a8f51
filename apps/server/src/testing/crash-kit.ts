import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Db, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { Client } from './client.ts';
import { createPostgresDatabase, TEMPLATE_ENV } from './databases.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/**
 * A database that outlives server processes, for crash tests: each process is started on it, killed
 * or stopped, and the next one started on the same data. PGlite is a data directory (one owner at a
 * time: the test reads it only while no process runs); PostgreSQL a fresh database (readable any time).
 */
export interface CrashTarget {
  name: 'pglite' | 'postgres';
  /** The environment that points a server process at this database. */
  env: Record<string, string>;
  /** Starts a server process on this database with more environment on top. */
  start(env?: Record<string, string>): Promise<ServerProcess>;
  /** Runs `work` on the database from the test (with PGlite, only while no server process runs). */
  inspect<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * An admin command through the running server (PGlite, as the command line does), or on the
   * database itself (PostgreSQL, where the server takes no admin commands).
   */
  admin(server: ServerProcess, args: string[]): Promise<unknown>;
  drop(): Promise<void>;
}

async function pgliteTarget(): Promise<CrashTarget> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-crash-'));
  const env = { DATA_DIR: dataDir };
  // The first process opens a copy of the run's migrated database rather than an initdb and every
  // migration, as a restored backup would start (testing/global-setup.ts).
  const template = process.env[TEMPLATE_ENV.pglite];
  if (template) await (await openDatabase({ dataDir, loadDataDir: new Blob([await readFile(template)]) })).destroy();
  return {
    name: 'pglite',
    env,
    start: (more = {}) => startServerProcess({ ...env, ...more }),
    async inspect(work) {
      // Opened after a server process has made and migrated it.
      const db = await openDatabase({ dataDir });
      try {
        return await work(db);
      } finally {
        await db.destroy();
      }
    },
    async admin(server, args) {
      const { adminToken } = JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')) as {
        adminToken: string;
      };
      const answer = await fetch(`${server.url}/admin/command`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-token': adminToken },
        body: JSON.stringify({ args: [...args, '--json'] }),
      });
      if (!answer.ok) throw new Error(`admin ${args.join(' ')}: ${answer.status} ${await answer.text()}`);
      return ((await answer.json()) as { json: unknown }).json;
    },
    drop: () => rm(dataDir, { recursive: true, force: true }),
  };
}

async function postgresTarget(adminUrl: string): Promise<CrashTarget> {
  const template = process.env[TEMPLATE_ENV.postgres];
  const created = await createPostgresDatabase(adminUrl, template);
  const db = await openDatabase({ url: created.url });
  if (!template) await migrateToLatest(db);
  // The generated secrets (the token signing key, the wallet seed) live in DATA_DIR there too.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-crash-'));
  const env = { DATABASE_URL: created.url, DATA_DIR: dataDir };
  const { runCommand } = await import('../app/commands.ts');
  return {
    name: 'postgres',
    env,
    start: (more = {}) => startServerProcess({ ...env, ...more }),
    inspect: (work) => work(db),
    admin: async (_server, args) => (await runCommand(db, args)).json,
    async drop() {
      await db.destroy();
      await created.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** PGlite (the embedded default) and, when TEST_DATABASE_URL names a server, PostgreSQL. */
export const crashTargetNames: Array<CrashTarget['name']> = [
  'pglite',
  ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []),
];

/** The one database a scenario runs on: PostgreSQL when the machine has one, else PGlite. */
export const preferredCrashTarget: CrashTarget['name'] = crashTargetNames[crashTargetNames.length - 1] ?? 'pglite';

export function crashTarget(name: CrashTarget['name']): Promise<CrashTarget> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  return name === 'postgres' && adminUrl ? postgresTarget(adminUrl) : pgliteTarget();
}

/** The same signed-in session against another process (the restarted server). */
export function sameSession(client: Client, url: string): Client {
  const next = new Client(url);
  next.idToken = client.idToken;
  next.cookie = client.cookie;
  return next;
}
