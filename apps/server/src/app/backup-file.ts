import { createHash, randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { type Db, embeddedDatabase } from '../db/database.ts';
import { migrationNames } from '../db/migrate.ts';
import { CommandError } from './commands.ts';

/**
 * A backup file: one line of JSON (the manifest), then the bytes of DATA_DIR/secrets.json (if
 * any), then PGlite's data directory as a gzipped tarball. The manifest's lengths and SHA-256
 * cover everything after it, so a cut or damaged file is refused before anything is touched.
 */
const KIND = 'ebs-console-backup';
export const BACKUP_FORMAT = 1;

export interface BackupManifest {
  kind: typeof KIND;
  format: number;
  productVersion: string;
  /** The last migration the database had when it was copied. */
  migration: string;
  createdAt: string;
  secretsBytes: number;
  databaseBytes: number;
  sha256: string;
}

export interface Snapshot {
  /** The data directory as a gzipped tarball. */
  database: Buffer;
  migration: string;
}

export interface Backup {
  manifest: BackupManifest;
  /** DATA_DIR/secrets.json as it was, or null when the server took its secrets from the environment. */
  secrets: Buffer | null;
  database: Buffer;
}

/** A consistent copy of an embedded database, taken by the process that has it open. */
export async function snapshotDatabase(db: Db): Promise<Snapshot> {
  const pglite = embeddedDatabase(db);
  if (!pglite) throw new CommandError('Only the embedded database is backed up here; use pg_dump for PostgreSQL');
  // The dialect has one connection: holding it keeps every other query and transaction out until
  // the copy is taken, and the checkpoint writes every committed change into the data files.
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(conn);
    await sql`checkpoint`.execute(conn);
    const tarball = await pglite.dumpDataDir('gzip');
    return { database: Buffer.from(await tarball.arrayBuffer()), migration: rows[0]?.name ?? '' };
  });
}

const sha256 = (...parts: Buffer[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

/** Writes the backup next to its final name and renames it there (mode 0600): a file is whole or absent. */
export async function writeBackup(
  file: string,
  snapshot: Snapshot,
  secrets: Buffer | null,
  productVersion: string,
): Promise<BackupManifest> {
  const manifest: BackupManifest = {
    kind: KIND,
    format: BACKUP_FORMAT,
    productVersion,
    migration: snapshot.migration,
    createdAt: new Date().toISOString(),
    secretsBytes: secrets?.length ?? 0,
    databaseBytes: snapshot.database.length,
    sha256: sha256(secrets ?? Buffer.alloc(0), snapshot.database),
  };
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(manifest)}\n`);
    if (secrets) await handle.writeFile(secrets);
    await handle.writeFile(snapshot.database);
    await handle.sync();
    await handle.close();
    await rename(temporary, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  return manifest;
}

/** Reads and checks a backup file; refuses anything this version cannot restore. */
export async function readBackup(file: string): Promise<Backup> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new CommandError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const notABackup = new CommandError(`${file} is not a backup made by \`admin backup\``);
  const end = bytes.subarray(0, 4096).indexOf('\n');
  if (end < 0) throw notABackup;
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(bytes.subarray(0, end).toString('utf8')) as BackupManifest;
  } catch {
    throw notABackup;
  }
  if (manifest?.kind !== KIND || !Number.isInteger(manifest.format)) throw notABackup;
  if (manifest.format > BACKUP_FORMAT) {
    throw new CommandError(
      `${file} was made by a newer version (${manifest.productVersion}, backup format ${manifest.format}); restore it with that version`,
    );
  }
  const secrets = bytes.subarray(end + 1, end + 1 + manifest.secretsBytes);
  const database = bytes.subarray(end + 1 + manifest.secretsBytes);
  if (
    secrets.length !== manifest.secretsBytes ||
    database.length !== manifest.databaseBytes ||
    sha256(secrets, database) !== manifest.sha256
  ) {
    throw new CommandError(`${file} is damaged or cut short (its checksum does not match); nothing was restored`);
  }
  checkMigration(manifest);
  return { manifest, secrets: manifest.secretsBytes > 0 ? secrets : null, database };
}

function checkMigration({ migration, productVersion }: BackupManifest): void {
  if (migrationNames.includes(migration)) return;
  const latest = migrationNames.at(-1) ?? '';
  if (migration > latest) {
    throw new CommandError(
      `The backup's database is at migration ${migration}, newer than this version knows (${latest}): restore it with version ${productVersion} or later`,
    );
  }
  throw new CommandError(`The backup's database is at migration "${migration}", which this version does not know`);
}
