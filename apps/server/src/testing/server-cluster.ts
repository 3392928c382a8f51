import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from './databases.ts';
import { type RoundRobin, startRoundRobin } from './round-robin.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

export interface Cluster {
  processes: ServerProcess[];
  /** The round-robin in front of them: what clients call. */
  proxy: RoundRobin;
  /** What every process was started with (a command line on the same data takes it too). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Several real server processes on one fresh PostgreSQL database and one data directory (so one
 * set of generated secrets), started at once as a deployment rolls them out, behind a local
 * round-robin. `env` comes on top (REDIS_URL, JOBS_INTERVAL_SECONDS, ...).
 */
export async function startCluster(options: {
  processes: number;
  adminUrl: string;
  env: Record<string, string>;
  /** The client address the round-robin reports for every request (see startRoundRobin). */
  forwardedFor?: string;
}): Promise<Cluster> {
  const database = await createPostgresDatabase(options.adminUrl);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ebs-cluster-'));
  const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, TRUST_PROXY: '1', ...options.env };
  const started = await Promise.allSettled(Array.from({ length: options.processes }, () => startServerProcess(env)));
  const processes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const cleanUp = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await cleanUp();
    throw failed.reason;
  }
  const proxy = await startRoundRobin(
    processes.map((p) => p.url),
    { forwardedFor: options.forwardedFor },
  );
  return {
    processes,
    proxy,
    env,
    async stop() {
      await proxy.close();
      await cleanUp();
    },
  };
}
