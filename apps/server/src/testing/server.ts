import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type Built, buildApp } from '../app/app.ts';
import { loadConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { TestDatabase } from './databases.ts';

export interface TestServer extends Built {
  url: string;
  db: Db;
  close(): Promise<void>;
}

/** The whole app on a random port over real HTTP, on the given database, with its own DATA_DIR for secrets. */
export async function startServer(
  db: Db,
  env: Record<string, string> = {},
  logStream?: NodeJS.WritableStream,
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    // The port is random, known only once listening: links in mail and receipts name this address.
    PUBLIC_URL: 'http://localhost:8080',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    WEB_DIST: '/nonexistent',
    ...env,
  });
  const built = await buildApp(config, logStream ? { db, logStream } : { db, logger: false });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    ...built,
    db,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await built.app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers a server on a fresh database for the enclosing describe block and returns a getter:
 * `const server = serverFor(database)`, then `server().url` inside the tests.
 */
export function serverFor(
  database: TestDatabase,
  env: Record<string, string> = {},
  logStream?: NodeJS.WritableStream,
): () => TestServer {
  let server: TestServer | undefined;
  let closeDb: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await database.open();
    closeDb = opened.close;
    server = await startServer(opened.db, env, logStream);
  });
  afterAll(async () => {
    await server?.close();
    await closeDb?.();
  });
  return () => {
    if (!server) throw new Error('the test server has not started');
    return server;
  };
}
