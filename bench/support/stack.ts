import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type AccountSummary, type CreatedApiKey, RPC_NETWORKS, rpcUrl } from '@ebs/contract';
import { commandThroughServer } from '../../apps/server/src/app/running-server.ts';
import { freePort, spawnAnvil, stopAnvil } from '../../apps/server/src/modules/rpc/anvil-nodes.ts';
import { secretsFile } from '../../apps/server/src/secrets.ts';
import { Client } from '../../apps/server/src/testing/client.ts';
import { FIXED_HEAD } from './fixed-upstream.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Things to undo, last made first undone; runs once, on success, failure or Ctrl-C alike. */
export class Cleanup {
  private readonly steps: Array<() => Promise<unknown>> = [];
  private done: Promise<void> | undefined;

  add(step: () => Promise<unknown>): void {
    this.steps.push(step);
  }

  run(): Promise<void> {
    this.done ??= (async () => {
      for (const step of this.steps.reverse()) {
        await step().catch((error: unknown) => console.error(`cleanup: ${(error as Error).message}`));
      }
    })();
    return this.done;
  }
}

export async function tempDir(cleanup: Cleanup): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ebs-bench-'));
  cleanup.add(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A process the bench started and measures against: where it answers and which process it is. */
export interface Upstream {
  url: string;
  pid: number | undefined;
}

/** The realistic upstream: a real Anvil node with Ethereum mainnet's chain id. */
export async function anvil(cleanup: Cleanup): Promise<Upstream> {
  const node = await spawnAnvil(1);
  cleanup.add(() => stopAnvil(node.child));
  return { url: node.url, pid: node.child.pid };
}

/** A bench/support script in a process of its own, listening on a free port once it prints its first line. */
async function supportProcess(cleanup: Cleanup, script: string, args: string[]): Promise<Upstream> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/support', script), String(port), ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  cleanup.add(() => stopChild(child, 5_000));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`${script} stopped at start (exit code ${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid };
}

/** How a fixed-answer node differs from the plain one (bench/support/fixed-upstream.ts). */
export interface FixedNode {
  /** The head it reports to the gateway's head read (default FIXED_HEAD). */
  head?: number;
  /** Milliseconds every answer waits. */
  delayMs?: number;
  /** Every call answered with the node's head, so that an answer tells which node gave it. */
  marked?: boolean;
}

/**
 * The cheapest upstream: bench/support/fixed-upstream.ts, for one network, whose chain id it gives the
 * gateway's head read (a node of another chain is marked down); `calls()` reads the calls it was sent.
 */
export async function fixedUpstream(
  cleanup: Cleanup,
  network: string,
  node: FixedNode = {},
): Promise<Upstream & { calls(): Promise<number> }> {
  const chainId = RPC_NETWORKS.find((n) => n.path === network)?.chainId;
  if (chainId === undefined) throw new Error(`no network ${network}`);
  const args = [String(chainId), String(node.head ?? FIXED_HEAD), String(node.delayMs ?? 0)];
  const upstream = await supportProcess(cleanup, 'fixed-upstream.ts', node.marked ? [...args, 'marked'] : args);
  return { ...upstream, calls: async () => Number(await (await fetch(`${upstream.url}count`)).text()) };
}

/** The minimal proxy counting the calls that pass it on to an upstream: `calls()` reads the count. */
export async function countingProxy(
  cleanup: Cleanup,
  upstream: string,
): Promise<Upstream & { calls(): Promise<number> }> {
  const proxy = await supportProcess(cleanup, 'minimal-proxy.ts', [upstream, '-', '-']);
  return { ...proxy, calls: async () => Number(await (await fetch(proxy.url)).text()) };
}

/**
 * The minimal Node.js proxy (bench/support/minimal-proxy.ts) in front of an upstream, for one key;
 * with `parses`, the same proxy reading each body as JSON first.
 */
export async function minimalProxy(
  cleanup: Cleanup,
  upstream: string,
  holder: KeyHolder,
  parses = false,
): Promise<Upstream> {
  const args = [upstream, holder.keyId, holder.key, ...(parses ? ['parse'] : [])];
  const proxy = await supportProcess(cleanup, 'minimal-proxy.ts', args);
  return { url: rpcUrl(proxy.url.replace(/\/$/, ''), 'proxy', holder.keyId, holder.key), pid: proxy.pid };
}

/** The server as `npm start` runs it: built by scripts/build-server.mjs, started without a TypeScript loader. */
const SERVER_ENTRY = path.join(ROOT, 'apps/server/dist/main.mjs');

function buildServerIfOutdated(): void {
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-outdated'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the server could not be built: ${result.stderr}`);
}

/** Resolves when the child exits, SIGKILLing it when SIGTERM has not ended it in time. */
function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface Server {
  baseUrl: string;
  port: number;
  pid: number | undefined;
  /** Milliseconds from the process's spawn to its "is running" line (migrations of a fresh DATA_DIR included). */
  startMs: number;
  env: Record<string, string>;
  log: ServerLog;
  /** CPU seconds the server process has used so far (Linux); undefined where /proc is not there. */
  cpuSeconds(): number | undefined;
  /** Resident memory of the server process in MB (Linux); undefined where /proc is not there. */
  residentMb(): number | undefined;
  /** A graceful stop (SIGTERM), as an operator's restart does. */
  stop(): Promise<void>;
}

/** What the server logged while it was measured (it logs warnings and errors only). */
export interface ServerLog {
  /** Requests still in flight when a timed run stopped: the client hung up, the gateway logs an error. */
  clientAborts: number;
  /** Any other error or fatal line: the figures of such a run are not to be trusted. */
  errors: string[];
  /** Warning lines (a job that could not process some items, Redis out of reach, ...). */
  warnings: string[];
}

function watchLog(child: ChildProcess, log: ServerLog): void {
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        let entry: { level?: number; msg?: string; err?: { code?: string } } = {};
        try {
          entry = JSON.parse(line);
        } catch {
          // not a log line: shown as it is
        }
        if (entry.msg === 'RPC request failed' && entry.err?.code === 'UND_ERR_ABORTED') {
          log.clientAborts++;
          continue;
        }
        if ((entry.level ?? 0) >= 50) log.errors.push(line);
        else if (entry.level === 40) log.warnings.push(line);
        process.stderr.write(`[server] ${line}\n`);
      }
    });
  }
}

/**
 * The console server as `npm start` runs it (embedded default: PGlite in a fresh DATA_DIR), its
 * gateway pointed at the bench's Anvil. Jobs are off so that only the gateway's own timers (key
 * cache refresh, usage flush) run beside the requests.
 */
export async function server(
  cleanup: Cleanup,
  dataDir: string,
  upstreams: Record<string, string>,
  cpuProfDir: string | undefined,
  /** More settings, e.g. DATABASE_URL to run on PostgreSQL instead of the embedded default. */
  settings: Record<string, string> = {},
): Promise<Server> {
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JOBS_INTERVAL_SECONDS: '0',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RPC_UPSTREAMS: JSON.stringify(Object.fromEntries(Object.entries(upstreams).map(([net, url]) => [net, [url]]))),
    ...settings,
  };
  // A clean environment: nothing from the caller's shell (DATABASE_URL, RPC_RATE_LIMIT_PER_SECOND, ...) changes the setup.
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  buildServerIfOutdated();
  const profile = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...profile, SERVER_ENTRY], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanup.add(() => stopChild(child, 15_000));
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 60 s:\n${output}`)), 60_000);
    const started = () => {
      if (!/is running at http/.test(output)) return;
      clearTimeout(timer);
      child.off('exit', stopped);
      resolve();
    };
    const stopped = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`the server stopped at start (exit code ${code}):\n${output}`));
    };
    child.stdout?.on('data', started);
    child.once('exit', stopped);
  });
  const startMs = performance.now() - spawnedAt;
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  const log: ServerLog = { clientAborts: 0, errors: [], warnings: [] };
  watchLog(child, log);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    startMs,
    env,
    log,
    cpuSeconds: () => cpuSecondsOf(child.pid),
    residentMb: () => residentMbOf(child.pid),
    stop: () => stopChild(child, 15_000),
  };
}

/**
 * CPU seconds of a process and its children (nginx's workers), from /proc: the run time of each of
 * its threads in nanoseconds (schedstat), or where the kernel keeps none its utime + stime in clock
 * ticks of 1/100 s (too coarse for windows of a fraction of a second).
 */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    return children.reduce((sum, child) => sum + (cpuSecondsOf(Number(child)) ?? 0), ownCpuSeconds(pid));
  } catch {
    return undefined;
  }
}

const SCHEDSTAT = existsSync('/proc/self/schedstat');

function ownCpuSeconds(pid: number): number {
  if (SCHEDSTAT) {
    let nanoseconds = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
    return nanoseconds / 1e9;
  }
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** VmRSS of a process, from /proc/<pid>/status, in MB. */
function residentMbOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** The admin command line, as an operator runs it beside the server. */
export function admin(srv: Server, ...args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/admin.ts', ...args], {
    cwd: ROOT,
    env: srv.env,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/**
 * An admin command run by the server itself, as the command line runs it on the embedded database,
 * but without a process of its own: quick enough for a switch between timed rounds.
 */
export async function adminInServer(srv: Server, ...args: string[]): Promise<string> {
  return (await commandInServer(srv, args)).text;
}

/** The same, answering what the command line prints with --json. */
export async function adminJsonInServer(srv: Server, ...args: string[]): Promise<unknown> {
  return (await commandInServer(srv, args)).json;
}

async function commandInServer(srv: Server, args: string[]) {
  const dataDir = srv.env.DATA_DIR as string;
  const result = await commandThroughServer(srv.port, secretsFile({ dataDir }), args);
  if (!result) throw new Error(`admin ${args.join(' ')}: the server took no command`);
  return result;
}

export interface KeyHolder {
  /** The owner's sign-in, for benchmarks that sign in again (a browser). */
  email: string;
  password: string;
  accountId: string;
  headers: Record<string, string>;
  client: Client;
  keyId: string;
  key: string;
  /** The gateway's URL of a network, with this key in the query. */
  gatewayUrl(network: string): string;
}

/** A signed-up owner of a credited account with one active API key, made as a customer would. */
export async function customer(srv: Server): Promise<KeyHolder> {
  const client = new Client(srv.baseUrl);
  const { email, password } = await client.signUp(`bench-${Date.now()}@example.com`, 'bench password 1');
  const created = await client.post<AccountSummary>(
    '/api/v1.0/account',
    { accountName: 'Bench' },
    { 'ebs-account-id': '' },
  );
  if (created.status !== 200) throw new Error(`account creation failed: ${created.body.message}`);
  const accountId = created.body.data.id;
  const headers = { 'ebs-account-id': accountId };
  // Enough for the fastest day's runs: at the default price, 5 billion calls.
  admin(srv, 'deposit', '--account', accountId, '--amount', '100000', '--note', 'bench');
  for (let i = 0; ; i++) {
    const details = await client.get<{ isBillingApiEnabled: boolean }>('/api/v1.0/account/details', headers);
    if (details.body.data?.isBillingApiEnabled) break;
    if (i === 100) throw new Error('the credited account was not enabled in 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const key = await client.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: 'bench' }, headers);
  if (key.status !== 200) throw new Error(`key creation failed: ${key.body.message}`);
  const { keyId, key: secret } = key.body.data.key;
  const gatewayUrl = (network: string) => rpcUrl(srv.baseUrl, network, keyId, secret);
  return { email, password, accountId, headers, client, keyId, key: secret, gatewayUrl };
}

/** Requests of the account counted by the gateway and written to the database so far. */
export async function meteredUsage(holder: KeyHolder): Promise<number> {
  const answer = await holder.client.get<{ accountResourceUsage: Array<{ usage: number }> }>(
    '/api/v1.0/usage/api/billing?limit=1000',
    holder.headers,
  );
  if (answer.status !== 200) throw new Error(`usage could not be read: ${answer.body.message}`);
  return answer.body.data.accountResourceUsage.reduce((sum, r) => sum + r.usage, 0);
}
