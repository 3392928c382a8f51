// What the notify suite reads beside the server: the database to run on, the server's version, the
// CPU of the PostgreSQL backends serving the server, and the whole machine's CPU (to tell how busy
// the rest of the machine was while the server was measured).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './postgres.ts';
import { type Cleanup, cpuSecondsOf, ROOT } from './stack.ts';

/** PostgreSQL where its server answers (BENCH_DATABASE_URL), else the embedded default; BENCH_NOTIFY_DATABASE chooses. */
export async function chooseDatabase(): Promise<'postgres' | 'pglite'> {
  const asked = process.env.BENCH_NOTIFY_DATABASE;
  if (asked === 'postgres' || asked === 'pglite') return asked;
  if (asked) throw new Error(`BENCH_NOTIFY_DATABASE must be postgres or pglite (got "${asked}")`);
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return 'postgres';
  } catch {
    return 'pglite';
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** CPU of the database's backends, summed as each was first and last seen (a backend closed meanwhile keeps its last reading). */
export class BackendCpu {
  private readonly seen = new Map<number, { first: number; last: number }>();

  constructor(private readonly pids: () => Promise<number[]>) {}

  async sample(first = false): Promise<void> {
    for (const pid of await this.pids()) {
      const seconds = cpuSecondsOf(pid);
      if (seconds === undefined) continue;
      const known = this.seen.get(pid);
      if (known) known.last = seconds;
      else this.seen.set(pid, { first: first ? seconds : 0, last: seconds });
    }
  }

  ms(): number {
    return [...this.seen.values()].reduce((sum, s) => sum + (s.last - s.first) * 1000, 0);
  }
}

/** The commit the server was built from, and whether its sources had changes not committed. */
export function serverVersion(): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return 'the server of this folder';
  const changed = git('status', '--porcelain', '--', 'apps/server', 'packages/contract').stdout.trim() !== '';
  return `the server at ${head.stdout.trim()}${changed ? ' with changes not committed' : ''}`;
}

/** CPU seconds every process of the machine has used so far (/proc/stat, clock ticks of 1/100 s); undefined elsewhere. */
export function machineCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return undefined;
  }
}

/** The backends of a database (its connections but the reader's own one), read through a connection of their own. */
export function databaseBackends(cleanup: Cleanup, url: string): BackendCpu {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  cleanup.add(() => pool.end());
  return new BackendCpu(async () => {
    const { rows } = await pool.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows.map((r) => r.pid);
  });
}
