import { type ChildProcess, spawn } from 'node:child_process';
import { serverCommand } from './server-command.ts';

export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** The exit code (null after a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** Kill -9: no shutdown hook runs, as in a crash or an out-of-memory kill. */
  crash(): Promise<void>;
  /** SIGTERM: the graceful stop an orchestrator sends; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * The real server (`apps/server/src/main.ts`, as built) as its own process on a free port, with the given
 * environment on top of a test default (no web app, warn-level log, jobs off unless asked). For
 * tests of what only a process shows: crashes, restarts, several processes on one database.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, serverCommand('main'), {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      HOST: '127.0.0.1',
      PORT: '0',
      // The port is random, known only once listening: links in mail and receipts name this address.
      PUBLIC_URL: 'http://localhost:8080',
      JOBS_INTERVAL_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const deadline = Date.now() + timeoutMs;
  let port: string | undefined;
  while (!port) {
    port = output.match(/running at http:\/\/localhost:(\d+)/)?.[1];
    if (port) break;
    if (ended || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server process did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    async crash() {
      if (!ended) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!ended) child.kill('SIGTERM');
      return exited;
    },
  };
}
