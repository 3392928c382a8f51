import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Built, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Db } from '../db/database.ts';

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
