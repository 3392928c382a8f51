import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandError, type CommandResult } from './commands.ts';

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

/**
 * Runs an admin command in the server listening on `port`, with the admin token of the secrets file
 * beside its data; undefined when there is no token or no server answers.
 */
export async function commandThroughServer(
  port: number,
  secretsPath: string,
  args: string[],
): Promise<CommandResult | undefined> {
  let token: string;
  try {
    token = (JSON.parse(await readFile(secretsPath, 'utf8')) as { adminToken: string }).adminToken;
  } catch {
    return undefined;
  }
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${port}/admin/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': token },
      body: JSON.stringify({ args }),
    });
  } catch {
    return undefined; // no server runs: the data directory is free to open
  }
  const body = (await response.json()) as CommandResult & { message?: string };
  if (!response.ok) throw new CommandError(body.message ?? `The server answered ${response.status}`);
  return body;
}
