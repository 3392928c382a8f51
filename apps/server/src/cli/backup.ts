import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs, promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { sql } from 'kysely';
import { readBackup, type Snapshot, snapshotDatabase, writeBackup } from '../app/backup-file.ts';
import { CommandError, type CommandResult } from '../app/commands.ts';
import { runningServer } from '../app/running-server.ts';
import type { Config } from '../config.ts';
import { type Db, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { secretsFile } from '../secrets.ts';

export const PG_DUMP = 'pg_dump --format=custom --file=ebs-$(date -u +%Y%m%dT%H%M%SZ).dump "$DATABASE_URL"';
export const PG_RESTORE = 'pg_restore --no-owner --exit-on-error --dbname="$NEW_DATABASE_URL" FILE.dump';

const ON_POSTGRES = {
  backup: `With DATABASE_URL the database is PostgreSQL: back it up with pg_dump, e.g.
  ${PG_DUMP}
and keep DATA_ENCRYPTION_KEY and WALLET_MASTER_SEED apart from the dump (docs/operations.md, "Backups").`,
  restore: `With DATABASE_URL the database is PostgreSQL: restore a pg_dump file into a fresh database, e.g.
  createdb NEW_DATABASE && ${PG_RESTORE}
then point DATABASE_URL at it and start the server (migrations run at start) with the same
DATA_ENCRYPTION_KEY and WALLET_MASTER_SEED (docs/operations.md, "Backups").`,
};

const timestamp = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
const pgliteDir = (config: Config) => path.join(config.dataDir, 'pglite');
// `npm run` starts in the project's folder; a file named on the command line is where the operator stands.
const fromHere = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

/** The version in the server package's package.json, the nearest one above this module (its sources or a build). */
async function productVersion(): Promise<string> {
  for (let dir = import.meta.dirname, up = 0; up < 4; dir = path.dirname(dir), up++) {
    try {
      const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
      if (pkg.name === '@ebs/server') return String(pkg.version);
    } catch {
      // not here: one folder up
    }
  }
  return 'unknown';
}

async function readIfPresent(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function adminToken(config: Config): Promise<string | undefined> {
  const stored = await readIfPresent(secretsFile(config));
  return stored ? (JSON.parse(stored.toString('utf8')) as { adminToken?: string }).adminToken || undefined : undefined;
}

/** The owner of the data directory takes the copy: the running server, or this process when none runs. */
async function takeSnapshot(config: Config): Promise<Snapshot & { takenBy: string }> {
  const server = await runningServer(config.dataDir);
  if (server) {
    const token = await adminToken(config);
    if (!token) throw new CommandError(serverOwns(server.pid, config, 'takes no admin commands'));
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${server.port}/admin/backup`, {
        method: 'POST',
        headers: { 'x-admin-token': token },
      });
    } catch {
      throw new CommandError(`The server of ${config.dataDir} (process ${server.pid}) does not answer`);
    }
    if (!response.ok) throw new CommandError(`The server answered ${response.status} to the backup`);
    const migration = response.headers.get('x-backup-migration') ?? '';
    return { database: Buffer.from(await response.arrayBuffer()), migration, takenBy: `server ${server.pid}` };
  }
  if (!existsSync(path.join(pgliteDir(config), 'PG_VERSION'))) {
    throw new CommandError(`No embedded database in ${config.dataDir} to back up`);
  }
  const db = await openDatabase({ dataDir: config.dataDir });
  try {
    return { ...(await snapshotDatabase(db)), takenBy: 'this command' };
  } finally {
    await db.destroy();
  }
}

const serverOwns = (pid: number, config: Config, why = 'owns it') =>
  `A server (process ${pid}) runs on ${config.dataDir} and ${why}. Stop the server first, then run the command again` +
  ` (if no server runs, delete ${path.join(config.dataDir, 'server.json')}).`;

async function backup(config: Config, out: string | undefined): Promise<CommandResult> {
  if (config.DATABASE_URL) throw new CommandError(ON_POSTGRES.backup);
  const file = fromHere(out ?? `ebs-backup-${timestamp()}.ebsbackup`);
  const snapshot = await takeSnapshot(config);
  const secrets = await readIfPresent(secretsFile(config));
  const manifest = await writeBackup(file, snapshot, secrets, await productVersion());
  const size = (await stat(file)).size;
  const keys = secrets
    ? ' It holds DATA_DIR/secrets.json too, the keys of every forwarding wallet: keep it as safe as the wallets.'
    : '';
  return {
    text: `Backed up the database (migration ${manifest.migration}, copied by ${snapshot.takenBy}) to ${file} (${(size / 1e6).toFixed(1)} MB).${keys}`,
    json: { file, bytes: size, takenBy: snapshot.takenBy, secretsIncluded: secrets !== null, ...manifest },
  };
}

async function confirm(question: string): Promise<void> {
  if (!process.stdin.isTTY) throw new CommandError(`${question}\nAdd --yes to restore without this question.`);
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await terminal.question(`${question} Type yes to go on: `);
  terminal.close();
  if (answer.trim().toLowerCase() !== 'yes') throw new CommandError('Not restored.');
}

/** Every row of the product's tables, to tell the operator what came back. */
async function countRows(db: Db): Promise<number> {
  const { rows: tables } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely%'`.execute(db);
  let total = 0;
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(db);
    total += rows[0]?.n ?? 0;
  }
  return total;
}

/**
 * The data directory as a plain tarball. Unpacked here, since PGlite's own unpacking of a file it
 * cannot read rejects a promise nobody awaits, which would end this process half-way.
 */
async function tarball(gzipped: Buffer): Promise<Blob> {
  const tar = await promisify(gunzip)(gzipped);
  if (tar.subarray(257, 262).toString('latin1') !== 'ustar') throw new Error('the database part is not a tarball');
  return new Blob([new Uint8Array(tar)], { type: 'application/x-tar' });
}

async function restore(config: Config, from: string | undefined, yes: boolean): Promise<CommandResult> {
  if (config.DATABASE_URL) throw new CommandError(ON_POSTGRES.restore);
  if (!from) throw new CommandError('--from FILE is required: the backup to restore');
  const server = await runningServer(config.dataDir);
  if (server) throw new CommandError(serverOwns(server.pid, config));
  const file = fromHere(from);
  const { manifest, secrets, database } = await readBackup(file);
  if (!yes) {
    await confirm(`This replaces the database in ${config.dataDir} by the backup of ${manifest.createdAt}.`);
  }

  // The current data is moved aside, never deleted: a restore can be undone by moving it back.
  const aside = path.join(config.dataDir, `before-restore-${timestamp()}`);
  const moved: string[] = [];
  for (const name of secrets ? ['pglite', 'secrets.json'] : ['pglite']) {
    if (!existsSync(path.join(config.dataDir, name))) continue;
    await mkdir(aside, { recursive: true, mode: 0o700 });
    await rename(path.join(config.dataDir, name), path.join(aside, name));
    moved.push(name);
  }
  let rows: number;
  try {
    const db = await openDatabase({ dataDir: config.dataDir, loadDataDir: await tarball(database) });
    try {
      await migrateToLatest(db);
      rows = await countRows(db);
    } finally {
      await db.destroy();
    }
    if (secrets) await writeFile(secretsFile(config), secrets, { mode: 0o600 });
  } catch (error) {
    await rm(pgliteDir(config), { recursive: true, force: true });
    for (const name of moved) await rename(path.join(aside, name), path.join(config.dataDir, name));
    await rm(aside, { recursive: true, force: true });
    throw new CommandError(`The backup could not be loaded (${(error as Error).message}); nothing was changed`);
  }
  const before = moved.length
    ? ` The data from before the restore is in ${aside}; delete it once you have checked the restored data.`
    : '';
  return {
    text: `Restored ${rows} rows from the backup of ${manifest.createdAt} (migration ${manifest.migration}).${before} Start the server with npm start.`,
    json: { file, rows, movedAside: moved.length ? aside : null, secretsRestored: secrets !== null, ...manifest },
  };
}

/** `backup [--out FILE]` and `restore --from FILE [--yes]`, which work on files rather than through the server. */
export async function runBackupCommand(config: Config, argv: string[]): Promise<CommandResult> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      from: { type: 'string' },
      yes: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (positionals.length === 1 && positionals[0] === 'backup') return backup(config, values.out);
  if (positionals.length === 1 && positionals[0] === 'restore')
    return restore(config, values.from, values.yes ?? false);
  throw new CommandError(`Unknown command "${positionals.join(' ')}"`);
}
