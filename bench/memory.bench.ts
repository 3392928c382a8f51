// `npm run bench` memory suite: the built server's start time and resident memory, idle and under
// gateway load, on the embedded default (PGlite) and on PostgreSQL. docs/performance.md explains it.
import { cpuPinning, pin } from './support/cpu-pinning.ts';
import { type Figure, report } from './support/figures.ts';
import { failures, measure, RPC_BODY, rpcBatch } from './support/load.ts';
import { ownPostgres } from './support/postgres.ts';
import { type Cleanup, customer, fixedUpstream, type Server, server, tempDir } from './support/stack.ts';
import { runSuite } from './support/suite.ts';

const NETWORK = 'polygon/mainnet';
/** Seconds of each load: single calls, then batches of 50, on 64 connections. */
const LOAD_SECONDS = 5;
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  database: string;
  firstStartMs: number;
  restartMs: number;
  idleMb: number;
  /** Idle on the same data after a restart. */
  restartIdleMb: number;
  loadedMb: number;
  failed: number;
}

/** Samples the server's resident memory every 100 ms while `work` runs; answers the highest. */
async function peakDuring(srv: Server, work: () => Promise<unknown>): Promise<number> {
  let peak = srv.residentMb() ?? 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, srv.residentMb() ?? 0);
  }, 100);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, srv.residentMb() ?? 0);
}

async function measureDatabase(cleanup: Cleanup, database: string, settings: Record<string, string>): Promise<Run> {
  const pinning = cpuPinning();
  const dir = await tempDir(cleanup);
  const upstream = await fixedUpstream(cleanup, NETWORK);
  const upstreams = { [NETWORK]: upstream.url };
  const first = await server(cleanup, dir, upstreams, undefined, settings);
  const holder = await customer(first);
  if (pinning) for (const pid of [first.pid, upstream.pid]) pin(pid, pinning.servers);
  // Idle: a user signed up with an account and a key, nothing sent through the gateway yet.
  await sleep(3_000);
  const idleMb = first.residentMb() ?? Number.NaN;
  let failed = 0;
  const loadedMb = await peakDuring(first, async () => {
    for (const [body, calls] of [
      [RPC_BODY, 1],
      [rpcBatch(50), 50],
    ] as const) {
      const m = await measure(
        { name: 'gateway', url: holder.gatewayUrl(NETWORK), cpuSeconds: first.cpuSeconds },
        LOAD_SECONDS,
        { body, calls, connections: 64 },
      );
      failed += failures(m);
      log(
        `${database}: ${Math.round(m.requestsPerSecond)} req/s of ${calls} call${calls === 1 ? '' : 's'}, resident ${first.residentMb()?.toFixed(0)} MB`,
      );
    }
  });
  await first.stop();
  // A restart on the data the first start made: what an operator's deploy waits for.
  const again = await server(cleanup, dir, upstreams, undefined, { ...settings, PORT: String(first.port) });
  // Idle again: what a server that has run for a while and was redeployed holds.
  await sleep(3_000);
  const restartIdleMb = again.residentMb() ?? Number.NaN;
  await again.stop();
  return {
    database,
    firstStartMs: first.startMs,
    restartMs: again.startMs,
    idleMb,
    restartIdleMb,
    loadedMb,
    failed,
  };
}

function figures(run: Run): Figure[] {
  const on = `, ${run.database}`;
  const embedded = run.database.startsWith('PGlite');
  return [
    {
      suite: 'memory',
      name: `start to ready, fresh data (migrations)${on}`,
      value: round(run.firstStartMs / 1000),
      unit: 's',
      target: { max: 5 },
    },
    {
      suite: 'memory',
      name: `start to ready, restart${on}`,
      value: round(run.restartMs / 1000),
      unit: 's',
      target: { max: 5 },
    },
    {
      suite: 'memory',
      name: `resident memory, idle after the first start${on}`,
      value: Math.round(run.idleMb),
      unit: 'MB',
      // The embedded database lives in the process (PGlite): the speed issue's targets for it.
      target: { max: embedded ? 320 : 150 },
    },
    {
      suite: 'memory',
      name: `resident memory, idle after a restart${on}`,
      value: Math.round(run.restartIdleMb),
      unit: 'MB',
      target: { max: embedded ? 250 : 150 },
    },
    {
      suite: 'memory',
      name: `resident memory, under gateway load${on}`,
      value: Math.round(run.loadedMb),
      unit: 'MB',
      target: { max: 300 },
    },
    {
      suite: 'memory',
      name: `failed requests under load${on}`,
      value: run.failed,
      unit: 'requests',
      target: { max: 0 },
    },
  ];
}

const round = (value: number) => Number(value.toFixed(2));

async function main(cleanup: Cleanup): Promise<number> {
  const pinning = cpuPinning();
  if (pinning) pin(process.pid, pinning.bench);
  const runs = [await measureDatabase(cleanup, 'PGlite (embedded default)', {})];
  const postgres = await ownPostgres(cleanup, 'memory');
  runs.push(await measureDatabase(cleanup, 'PostgreSQL', { DATABASE_URL: postgres.url }));
  console.error(
    `\nEBS memory and start, ${new Date().toISOString().slice(0, 10)}: the built server (node apps/server/dist/main.mjs), Node ${process.version}`,
  );
  console.error('database                     first start  restart  idle MB  idle MB, restarted  loaded MB  failed');
  for (const r of runs) {
    console.error(
      `${r.database.padEnd(28)} ${`${(r.firstStartMs / 1000).toFixed(2)} s`.padStart(11)}  ${`${(r.restartMs / 1000).toFixed(2)} s`.padStart(7)}  ${r.idleMb.toFixed(0).padStart(7)}  ${r.restartIdleMb.toFixed(0).padStart(18)}  ${r.loadedMb.toFixed(0).padStart(9)}  ${String(r.failed).padStart(6)}`,
    );
  }
  for (const run of runs) for (const figure of figures(run)) report(figure);
  return 0;
}

runSuite(main);
