import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { embeddedDatabase, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createPostgresDatabase, TEMPLATE_ENV } from './databases.ts';
import { SERVER_BUILD_ENV } from './server-command.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

/**
 * Migrates one database of each kind before the server tests start, so that a test's fresh
 * database is a copy of it (PGlite from a data directory tarball, PostgreSQL from a template
 * database) rather than an initdb and every migration again. The workers find both through the
 * environment; each is removed when the run ends. It also builds the server once, so that the tests
 * that start server processes (crashes, restarts, the admin command line) start the built one.
 */
export async function setup() {
  const dir = await mkdtemp(path.join(tmpdir(), 'ebs-templates-'));
  // Under apps/server, where the build's packages resolve from node_modules.
  await mkdir(path.join(ROOT, 'apps/server/dist'), { recursive: true });
  const build = await mkdtemp(path.join(ROOT, 'apps/server/dist/test-'));
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--out', build], { cwd: ROOT, stdio: 'ignore' });
  process.env[SERVER_BUILD_ENV] = build;
  const embedded = await openDatabase({});
  await migrateToLatest(embedded);
  const tarball = await embeddedDatabase(embedded)?.dumpDataDir('none');
  await embedded.destroy();
  if (!tarball) throw new Error('PGlite gave no data directory');
  const file = path.join(dir, 'pglite.tar');
  await writeFile(file, Buffer.from(await tarball.arrayBuffer()));
  process.env[TEMPLATE_ENV.pglite] = file;

  const adminUrl = process.env.TEST_DATABASE_URL;
  let dropTemplate: (() => Promise<void>) | undefined;
  if (adminUrl) {
    const template = await createPostgresDatabase(adminUrl);
    const db = await openDatabase({ url: template.url });
    await migrateToLatest(db);
    await db.destroy();
    const name = new URL(template.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`alter database ${name} is_template true`).finally(() => admin.end());
    process.env[TEMPLATE_ENV.postgres] = name;
    dropTemplate = async () => {
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`alter database ${name} is_template false`).finally(() => again.end());
      await template.drop();
    };
  }

  return async () => {
    await dropTemplate?.();
    await rm(dir, { recursive: true, force: true });
    await rm(build, { recursive: true, force: true });
  };
}
