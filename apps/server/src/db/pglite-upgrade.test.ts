import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { PGlite as PreviousPGlite } from 'pglite-previous';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBackup } from '../app/backup-file.ts';
import { runBackupCommand } from '../cli/backup.ts';
import { loadConfig } from '../config.ts';
import { type Db, openDatabase, PGLITE_SHARED_BUFFERS } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

const dirs: string[] = [];
const dataDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ebs-pglite-upgrade-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** What the previous version's data holds: an operator setting and a user, written through its own PGlite. */
const SETTING = { name: 'upgrade-check', value: JSON.stringify({ kept: true }) };
const EMAIL = 'kept@example.com';

async function previousDatabase(dir: string) {
  const pglite = await PreviousPGlite.create({ dataDir: path.join(dir, 'pglite') });
  // The dialect drives either version; its types name the current one.
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite as unknown as PGlite) });
  await migrateToLatest(db);
  await db.insertInto('settings').values(SETTING).execute();
  await db
    .insertInto('users')
    .values({ email: EMAIL, given_name: 'Kept', family_name: 'User', password_hash: null, created_at: new Date() })
    .execute();
  return { pglite, db };
}

async function whatIsThere(db: Db) {
  const setting = await db.selectFrom('settings').select(['name', 'value']).where('name', '=', SETTING.name).execute();
  const users = await db.selectFrom('users').select('email').execute();
  const { rows } = await sql<{ buffers: string; version: string }>`
    select current_setting('shared_buffers') as buffers, current_setting('server_version') as version`.execute(db);
  return { setting, users: users.map((u) => u.email), ...rows[0] };
}

// Each test creates, migrates and copies whole PGlite databases (10–20 s alone, twice that beside the
// rest of the suite on two cores): its bound is the work's, not the suite's 30 s.
describe('the embedded database after the PGlite upgrade (0.3 → 0.4, both PostgreSQL 17.5)', {
  timeout: 120_000,
}, () => {
  it('opens a data directory the previous version wrote as it is, every row kept, with small shared buffers', async () => {
    const dir = await dataDir();
    const previous = await previousDatabase(dir);
    await previous.db.destroy();

    const db = await openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(db);
      expect(await whatIsThere(db)).toEqual({
        setting: [{ name: SETTING.name, value: { kept: true } }],
        users: [EMAIL],
        buffers: PGLITE_SHARED_BUFFERS,
        version: expect.stringMatching(/^17\./),
      });
    } finally {
      await db.destroy();
    }
  });

  it('restores a backup the previous version took (`admin restore`), every row kept', async () => {
    const source = await dataDir();
    const previous = await previousDatabase(source);
    const { rows } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(previous.db);
    await sql`checkpoint`.execute(previous.db);
    const tarball = await previous.pglite.dumpDataDir('gzip');
    const file = path.join(source, 'previous.backup');
    await writeBackup(
      file,
      { database: Buffer.from(await tarball.arrayBuffer()), migration: rows[0]?.name ?? '' },
      null,
      'previous',
    );
    await previous.db.destroy();

    const target = await dataDir();
    await runBackupCommand(loadConfig({ DATA_DIR: target }), ['restore', '--from', file, '--yes']);
    const db = await openDatabase({ dataDir: target });
    try {
      expect(await whatIsThere(db)).toMatchObject({
        setting: [{ name: SETTING.name, value: { kept: true } }],
        users: [EMAIL],
        buffers: PGLITE_SHARED_BUFFERS,
      });
    } finally {
      await db.destroy();
    }
  });

  it('creates a new data directory (initdb runs in a child process) and opens it with the small buffers', async () => {
    const dir = await dataDir();
    const db = await openDatabase({ dataDir: dir });
    try {
      expect(existsSync(path.join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
      await migrateToLatest(db);
      expect((await whatIsThere(db)).buffers).toBe(PGLITE_SHARED_BUFFERS);
    } finally {
      await db.destroy();
    }
  });
});
