import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ServerRecord {
  pid: number;
  port: number;
}

/**
 * A server on the embedded database leaves its process id and port in DATA_DIR while it runs, so
 * the admin command line finds it whatever PORT says, and never opens a data directory that has
 * an owner (two PGlite processes on one directory corrupt it).
 */
export const serverRecordFile = (dataDir: string) => path.join(dataDir, 'server.json');

async function readRecord(dataDir: string): Promise<ServerRecord | undefined> {
  try {
    const record = JSON.parse(await readFile(serverRecordFile(dataDir), 'utf8')) as Partial<ServerRecord>;
    return Number.isInteger(record.pid) && Number.isInteger(record.port) ? (record as ServerRecord) : undefined;
  } catch {
    return undefined;
  }
}

export async function recordServer(dataDir: string, port: number): Promise<void> {
  await writeFile(serverRecordFile(dataDir), JSON.stringify({ pid: process.pid, port }), { mode: 0o600 });
}

/** Removes the record on a clean stop; a record another process wrote since is left alone. */
export async function forgetServer(dataDir: string): Promise<void> {
  if ((await readRecord(dataDir))?.pid === process.pid) await rm(serverRecordFile(dataDir), { force: true });
}

/** The server that owns DATA_DIR now: a record whose process still lives (a crash leaves a dead one behind). */
export async function runningServer(dataDir: string): Promise<ServerRecord | undefined> {
  const record = await readRecord(dataDir);
  if (!record) return undefined;
  try {
    process.kill(record.pid, 0);
    return record;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? record : undefined;
  }
}
