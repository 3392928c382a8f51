// `node --import tsx bench/console-api.bench.ts`: the console's lists, charts and cards for accounts
// of 10 000 to 1 000 000 transactions (and five usage records per transaction) among 100 000
// accounts, on PGlite and on PostgreSQL, over HTTP against the server as `npm start` runs it,
// signed in as the accounts' owner. docs/performance.md explains the figures.
import os from 'node:os';
import { type Db, openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { Client } from '../apps/server/src/testing/client.ts';
import { accountList, ConsoleClient, chartResources } from './support/console-calls.ts';
import { type Dataset, type MeasuredAccount, plan, seed } from './support/console-seed.ts';
import { measuredCalls, type Reference, referenceOf } from './support/console-targets.ts';
import { report } from './support/figures.ts';
import { type Latency, latencyOf, type Sampling } from './support/latency.ts';
import { ownPostgres } from './support/postgres.ts';
import { wholeSetting } from './support/settings.ts';
import { Cleanup, server, tempDir } from './support/stack.ts';
import { runSuite } from './support/suite.ts';

const SUITE = 'console-api';

const SIZES = (process.env.BENCH_CONSOLE_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const ACCOUNTS = wholeSetting('BENCH_CONSOLE_ACCOUNTS', 100_000);
const SAMPLING: Sampling = {
  samples: wholeSetting('BENCH_CONSOLE_SAMPLES', 200),
  warmup: wholeSetting('BENCH_CONSOLE_WARMUP', 10),
  maxSeconds: wholeSetting('BENCH_CONSOLE_MAX_SECONDS', 4),
  minSamples: Math.min(10, wholeSetting('BENCH_CONSOLE_SAMPLES', 200)),
};
const DATABASES = (process.env.BENCH_CONSOLE_DATABASES ?? 'pglite,postgres').split(',');
/** Only the calls whose name contains this text (all by default): to profile or rerun a few. */
const CALLS = process.env.BENCH_CONSOLE_CALLS ?? '';
/**
 * PGlite runs no autovacuum: a database only the app has written has neither planner statistics
 * nor a visibility map. `off` leaves them out after the seed, as such a database would be.
 */
const PGLITE_VACUUM = process.env.BENCH_CONSOLE_PGLITE_VACUUM !== 'off';
/** A folder: each server runs with --cpu-prof and writes its profile there when it stops. */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF || undefined;

const log = (line: string) => process.stderr.write(`${line}\n`);
const short = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

interface Prepared {
  name: string;
  dataDir: string;
  settings: Record<string, string>;
  references: Reference[];
}

/** Seeds a migrated database and reads back what each measured account must show. */
async function load(
  db: Db,
  dataset: Dataset,
  name: string,
  oneRoundTrip: boolean,
  vacuum: boolean,
): Promise<Reference[]> {
  const seconds = await seed(db, dataset, { oneRoundTrip, vacuum });
  log(`${name}: seeded in ${seconds.toFixed(0)} s`);
  return Promise.all(dataset.measured.map((account) => referenceOf(db, account.id)));
}

/** The embedded default: the server's own PGlite module and options on DATA_DIR, opened, seeded and closed first. */
async function preparePglite(cleanup: Cleanup, dataset: Dataset): Promise<Prepared> {
  const dataDir = await tempDir(cleanup);
  const db = await openDatabase({ dataDir });
  try {
    await migrateToLatest(db);
    return {
      name: 'PGlite',
      dataDir,
      settings: {},
      references: await load(db, dataset, 'PGlite', false, PGLITE_VACUUM),
    };
  } finally {
    await db.destroy();
  }
}

/**
 * PostgreSQL: a database of this run's own, which the server is pointed at with DATABASE_URL. Its
 * load is one round trip: the database server works on it while this process seeds PGlite.
 */
async function preparePostgres(cleanup: Cleanup, dataset: Dataset): Promise<() => Promise<Prepared>> {
  const dataDir = await tempDir(cleanup);
  const { url, db } = await ownPostgres(cleanup, 'console_api');
  const references = load(db, dataset, 'PostgreSQL', true, true);
  // Awaited once PGlite is seeded; until then a failure must not end the process as unhandled.
  references.catch(() => undefined);
  return async () => ({ name: 'PostgreSQL', dataDir, settings: { DATABASE_URL: url }, references: await references });
}

/** p50 and p99, with the number of samples where the time budget cut them short. */
const cell = (l: Latency) =>
  `${l.p50.toFixed(1).padStart(8)} ${l.p99.toFixed(1).padStart(8)}${(l.samples < SAMPLING.samples ? `(${l.samples})` : '').padEnd(5)}`;

interface Results {
  name: string;
  table: Map<string, Latency[]>;
  targets: Map<string, number>;
  accountList: Latency;
}

async function measure(prepared: Prepared, dataset: Dataset): Promise<Results> {
  // One server per database, stopped before the next is measured so that it takes no CPU from it.
  const local = new Cleanup();
  try {
    const srv = await server(local, prepared.dataDir, {}, CPU_PROFILE_DIR, prepared.settings);
    log(`${prepared.name}: server ready in ${(srv.startMs / 1000).toFixed(1)} s`);
    const client = new Client(srv.baseUrl);
    const signIn = await client.post<{ idToken: string }>('/auth/sign-in', {
      email: dataset.email,
      password: dataset.password,
    });
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.body.message}`);
    const api = new ConsoleClient(srv.baseUrl, signIn.body.data.idToken);
    const table = new Map<string, Latency[]>();
    const targets = new Map<string, number>();
    const first = dataset.measured[0] as MeasuredAccount;
    const calls = measuredCalls(await chartResources(api, first.id));
    for (const row of calls.filter((r) => r.name.includes(CALLS))) {
      const latencies: Latency[] = [];
      for (const [i, account] of dataset.measured.entries()) {
        latencies.push(await latencyOf(row.call(api, account, prepared.references[i] as Reference), SAMPLING));
      }
      table.set(row.name, latencies);
      targets.set(row.name, row.target);
      log(
        `${prepared.name}: ${row.name}: ${latencies.map((l) => `${l.p50.toFixed(1)}/${l.p99.toFixed(1)}`).join(', ')} ms`,
      );
    }
    const accounts = await latencyOf(async () => {
      const list = await accountList(api);
      if (list.total !== dataset.measured.length) throw new Error(`account list: ${list.total} accounts`);
    }, SAMPLING);
    if (srv.log.errors.length > 0) throw new Error(`the server logged errors:\n${srv.log.errors.join('\n')}`);
    return { name: prepared.name, table, targets, accountList: accounts };
  } finally {
    await local.run();
  }
}

function print(results: Results, dataset: Dataset): void {
  const sizes = dataset.measured.map((a) => `${short(a.transactions)} tx`.padStart(17).padEnd(22));
  console.error(
    `\n${results.name}: ms per call, p50 and p99 (one call at a time after up to ${SAMPLING.warmup} warm-up calls; ${SAMPLING.samples} samples, or as many as ${SAMPLING.maxSeconds} s allowed, shown in brackets)`,
  );
  console.error(`${'call'.padEnd(36)}${sizes.join('')}   target p99`);
  for (const [name, latencies] of results.table) {
    console.error(`${name.padEnd(36)}${latencies.map(cell).join('')}   ≤ ${results.targets.get(name)}`);
  }
  console.error(`${'account list (3 accounts)'.padEnd(36)}${cell(results.accountList)}   ≤ 20`);
  // The load generator shares the machine's cores with the server: what it used is not the server's.
  for (const [name, latencies] of results.table) {
    if (!name.startsWith('chart')) continue;
    const cpu = latencies.map((l) => l.clientCpu.toFixed(0)).join(', ');
    console.error(
      `${name}: the bench process itself used ${cpu} ms of CPU per chart (its pages sent, parsed, checked)`,
    );
  }
}

function reportAll(results: Results, dataset: Dataset): void {
  const largest = dataset.measured.length - 1;
  const size = `${short(dataset.measured[largest]?.transactions ?? 0)} transactions`;
  for (const [name, latencies] of results.table) {
    const l = latencies[largest] as Latency;
    const target = results.targets.get(name) ?? 0;
    report({ suite: SUITE, name: `${results.name}: ${name}, ${size}, p50`, value: round(l.p50), unit: 'ms' });
    report({
      suite: SUITE,
      name: `${results.name}: ${name}, ${size}, p99`,
      value: round(l.p99),
      unit: 'ms',
      target: { max: target },
    });
  }
  // Linear growth would be 100× from the smallest to the largest account: the first pages must stay flat.
  const smallest = dataset.measured[0];
  for (const name of ['transactions, first page', 'transactions, page 100', 'usage, first page', 'usage, page 100']) {
    const latencies = results.table.get(name);
    if (!latencies || !smallest || largest === 0) continue;
    report({
      suite: SUITE,
      name: `${results.name}: ${name}, p50 growth from ${short(smallest.transactions)} to ${size}`,
      value: round((latencies[largest] as Latency).p50 / (latencies[0] as Latency).p50),
      unit: '×',
      target: { max: 10 },
    });
  }
  const l = results.accountList;
  report({
    suite: SUITE,
    name: `${results.name}: account list, p99`,
    value: round(l.p99),
    unit: 'ms',
    target: { max: 20 },
  });
}

const round = (n: number) => Math.round(n * 100) / 100;

async function main(cleanup: Cleanup): Promise<number> {
  const started = Date.now();
  const dataset = plan(SIZES, ACCOUNTS);
  console.error(
    `EBS console API benchmark, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${os.cpus().length} CPUs, ` +
      `load average ${os.loadavg()[0]?.toFixed(2)} before the run; ${ACCOUNTS} accounts, measured ones of ` +
      `${dataset.measured.map((a) => `${short(a.transactions)} tx + ${short(a.usageRecords)} usage`).join(', ')}`,
  );
  const unknown = DATABASES.filter((name) => name !== 'pglite' && name !== 'postgres');
  if (unknown.length > 0) throw new Error(`BENCH_CONSOLE_DATABASES: unknown ${unknown.join(', ')}`);
  // Both databases are seeded at once (one core each), then measured one after the other.
  const postgres = DATABASES.includes('postgres') ? await preparePostgres(cleanup, dataset) : undefined;
  const prepared: Prepared[] = [];
  if (DATABASES.includes('pglite')) prepared.push(await preparePglite(cleanup, dataset));
  if (postgres) prepared.push(await postgres());
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  for (const database of prepared) {
    const results = await measure(database, dataset);
    print(results, dataset);
    reportAll(results, dataset);
  }
  log(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return 0;
}

runSuite(main);
