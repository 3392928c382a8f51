// `npm run soak`: SOAK_MINUTES (10) of gateway traffic, console browsing and background jobs at once,
// against two built server processes on one PostgreSQL database and Redis behind a round-robin
// balancer. Samples every process's memory and the requests' errors and latencies every 10 s, then
// stops the servers gracefully and checks the ledger. Exit code 1 when anything failed, memory
// grew, or the ledger does not add up. bench/README.md ("soak") says what is judged and why.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RPC_NETWORKS } from '@ebs/contract';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { runBilling } from '../../apps/server/src/modules/billing/usage-billing.job.ts';
import { setPrice } from '../../apps/server/src/modules/usage/usage.service.ts';
import { createPostgresDatabase } from '../../apps/server/src/testing/databases.ts';
import { reportFigures } from '../../apps/server/src/testing/report.ts';
import { startRoundRobin } from '../../apps/server/src/testing/round-robin.ts';
import { wholeSetting } from '../support/settings.ts';
import { type Cleanup, fixedUpstream, type Server, server, tempDir } from '../support/stack.ts';
import { runSuite } from '../support/suite.ts';
import { browse } from './browsing.ts';
import { CallCounts, Gateway, steadyTraffic } from './gateway-traffic.ts';
import { checkLedger } from './ledger-checks.ts';
import { AUTO_PAY_PRICE, AUTO_PAY_RESOURCE, seed } from './seed.ts';
import { ledgerLines, memoryLines, memoryVerdicts, type Sample, sampleHeader, sampleLine } from './soak-report.ts';
import { Tally } from './tally.ts';

const MINUTES = wholeSetting('SOAK_MINUTES', 10);
const PROCESSES = wholeSetting('SOAK_PROCESSES', 2);
const RPC_RATE = wholeSetting('SOAK_RPC_RATE', 200);
const USERS = Math.max(2, wholeSetting('SOAK_USERS', 4));
const SAMPLE_SECONDS = 10;
/**
 * Scheduled billing bills closed days only, so a run that does not cross midnight (UTC) would post
 * no usage withdrawal: an operator's run (`jobs run billing`, today included) stands in for the day's
 * turn this often, at least twice a run.
 */
const OPERATOR_BILLING_SECONDS = Math.min(120, (MINUTES * 60) / 3);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** A Redis database of the soak's own, so that its rate-limit counters never meet the tests'. */
const REDIS_URL = process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379/3';
/** The one client address the balancer reports for the soak's people (TRUST_PROXY=1). */
const CLIENT_ADDRESS = '198.51.100.7';
/** The console's public address, the same in every process (the balancer's own port is picked later). */
const PUBLIC_URL = 'http://console.soak.localhost';

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function heapMb(file: string): number {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { heapUsed: number }).heapUsed / 2 ** 20;
  } catch {
    return Number.NaN;
  }
}

async function startServers(
  cleanup: Cleanup,
  databaseUrl: string,
): Promise<{ servers: Server[]; heapFiles: string[] }> {
  const dataDir = await tempDir(cleanup);
  // One node per network: the gateway reads each node's chain id, and a node of another chain is down.
  const upstreams = Object.fromEntries(
    await Promise.all(RPC_NETWORKS.map(async (n) => [n.path, (await fixedUpstream(cleanup, n.path)).url] as const)),
  );
  const probe = pathToFileURL(path.join(import.meta.dirname, 'heap-probe.mjs')).href;
  const servers: Server[] = [];
  const heapFiles: string[] = [];
  // One after the other: the first migrates the database and writes the shared DATA_DIR's secrets.
  for (let i = 0; i < PROCESSES; i++) {
    const heapFile = path.join(dataDir, `heap-${i + 1}.json`);
    heapFiles.push(heapFile);
    servers.push(
      await server(cleanup, dataDir, upstreams, undefined, {
        DATABASE_URL: databaseUrl,
        // One address for every process, as behind a real balancer: it is the identity tokens' issuer.
        PUBLIC_URL: PUBLIC_URL,
        REDIS_URL,
        JOBS_INTERVAL_SECONDS: '5',
        USAGE_FLUSH_SECONDS: '3',
        RPC_RATE_LIMIT_PER_SECOND: '1000',
        // A deposit a minute per person: a soak of more than 50 minutes would meet the day's limit.
        PAYMENT_RATE_LIMIT_PER_DAY: '10000',
        ID_TOKEN_TTL_SECONDS: '120',
        TRUST_PROXY: '1',
        NODE_OPTIONS: `--import=${probe}`,
        SOAK_HEAP_FILE: heapFile,
      }),
    );
  }
  return { servers, heapFiles };
}

async function main(cleanup: Cleanup): Promise<number> {
  const seconds = MINUTES * 60;
  const database = await createPostgresDatabase(ADMIN_URL);
  cleanup.add(() => database.drop());
  const { servers, heapFiles } = await startServers(cleanup, database.url);
  const balancer = await startRoundRobin(
    servers.map((s) => s.baseUrl),
    { log: false, forwardedFor: CLIENT_ADDRESS },
  );
  cleanup.add(() => balancer.close());
  const db = await openDatabase({ url: database.url });
  cleanup.add(() => db.destroy());
  await setPrice(db, AUTO_PAY_RESOURCE, AUTO_PAY_PRICE);

  log(`soak: ${PROCESSES} server processes behind ${balancer.url}, PostgreSQL ${database.url}, Redis ${REDIS_URL}`);
  const { users, targets } = await seed(balancer.url, servers[0]?.baseUrl ?? balancer.url, USERS);
  const deposits = new Map<string, number>();
  for (const user of users) for (const account of user.accounts) deposits.set(account.id, account.paying ? 1 : 0);
  log(`seeded ${users.length} users, ${targets.length} keys; ${MINUTES} min of load at ${RPC_RATE} gateway requests/s`);

  const gatewayTally = new Tally('gateway');
  const consoleTally = new Tally('console');
  const calls = new CallCounts();
  const gateway = new Gateway(balancer.url, gatewayTally, calls);
  cleanup.add(() => gateway.close());
  let running = true;
  const traffic = steadyTraffic(gateway, targets, { rate: RPC_RATE, batchEvery: 10, batchSize: 20 });
  const browsing = browse(users, consoleTally, gateway, () => running);
  const billingErrors: string[] = [];
  const operatorBilling = setInterval(() => {
    runBilling(db, { includeToday: true })
      .then((run) => billingErrors.push(...run.errors))
      .catch((error: unknown) => billingErrors.push((error as Error).message));
  }, OPERATOR_BILLING_SECONDS * 1000);

  // The heap is read every second and each sample keeps its window's least: what survives collection.
  let heapFloors = servers.map(() => Number.POSITIVE_INFINITY);
  const heapReader = setInterval(() => {
    heapFloors = heapFloors.map((floor, i) => Math.min(floor, heapMb(heapFiles[i] as string)));
  }, 1000);
  const started = performance.now();
  const samples: Sample[] = [];
  let servedBefore = servers.map(() => 0);
  const takeSample = () => {
    const sample: Sample = {
      at: (performance.now() - started) / 1000,
      processes: servers.map((s, i) => ({
        rssMb: s.residentMb() ?? Number.NaN,
        heapMb: Number.isFinite(heapFloors[i]) ? (heapFloors[i] as number) : heapMb(heapFiles[i] as string),
        served: (balancer.counts[i] ?? 0) - (servedBefore[i] ?? 0),
      })),
      gateway: gatewayTally.cut(),
      console: consoleTally.cut(),
    };
    servedBefore = [...balancer.counts];
    heapFloors = servers.map(() => Number.POSITIVE_INFINITY);
    samples.push(sample);
    log(sampleLine(sample));
  };
  log(sampleHeader(servers.length));
  takeSample();
  while ((performance.now() - started) / 1000 < seconds) {
    await sleep(Math.min(SAMPLE_SECONDS * 1000, seconds * 1000 - (performance.now() - started)));
    takeSample();
  }

  running = false;
  clearInterval(operatorBilling);
  clearInterval(heapReader);
  await traffic.stop();
  await browsing.done;
  // A graceful stop writes each process's counted usage: only then is the metered total final.
  await Promise.all(servers.map((s) => s.stop()));
  for (const [account, n] of browsing.counts.deposits) deposits.set(account, (deposits.get(account) ?? 0) + n);
  const ledger = await checkLedger(db, calls, deposits);

  const logErrors = servers.flatMap((s) => [...s.log.errors, ...s.log.warnings]);
  const aborts = servers.reduce((n, s) => n + s.log.clientAborts, 0);
  const errors = gatewayTally.errors + consoleTally.errors + logErrors.length + aborts + billingErrors.length;
  const verdicts = memoryVerdicts(samples, seconds, SAMPLE_SECONDS);
  const gw = gatewayTally.overall();
  const con = consoleTally.overall();
  const jobsRan = ledger.figures.autoDeposits > 0 && ledger.figures.usageWithdrawals > 0;
  const ledgerOk = ledger.checks.every((c) => c.broken.length === 0);
  const lines = [
    '',
    `EBS soak, ${new Date().toISOString()}: ${MINUTES} min, ${PROCESSES} built server processes (PostgreSQL, Redis, round robin), Node ${process.version}`,
    sampleHeader(servers.length),
    ...samples.map(sampleLine),
    '',
    `gateway: ${gatewayTally.requests} requests (${calls.total} calls answered), ${gatewayTally.errors} errors, ${traffic.behind} not sent (generator behind), p50 ${gw.p50.toFixed(1)} ms, p99 ${gw.p99.toFixed(1)} ms`,
    `console: ${consoleTally.requests} requests (${browsing.counts.pageViews} page views, ${browsing.counts.keysMade} keys made and deleted), ${consoleTally.errors} errors, p50 ${con.p50.toFixed(1)} ms, p99 ${con.p99.toFixed(1)} ms`,
    `server logs: ${logErrors.length} error or warning lines, ${aborts} aborted requests; operator billing runs: ${billingErrors.length} errors`,
    ...[...gatewayTally.firstErrors, ...consoleTally.firstErrors, ...logErrors.slice(0, 20), ...billingErrors].map(
      (e) => `  ${e.slice(0, 400)}`,
    ),
    ...memoryLines(samples, verdicts),
    ...ledgerLines(ledger.checks, ledger.figures),
    `jobs: ${ledger.figures.autoDeposits} auto pay deposits, ${ledger.figures.usageWithdrawals} usage withdrawals${jobsRan ? '' : ' (NOT EXERCISED: the run proves nothing of them)'}`,
  ];
  const passed = errors === 0 && verdicts.every((v) => v.flat) && ledgerOk && jobsRan;
  lines.push('', passed ? 'SOAK PASSED' : '!!! SOAK FAILED !!!');
  console.error(lines.join('\n'));
  const mid = samples[Math.floor(samples.length / 2)];
  reportFigures('soak: gateway, console and jobs together, no error, memory flat', {
    minutes: MINUTES,
    gatewayRequests: gatewayTally.requests,
    gatewayCalls: calls.total,
    consoleRequests: consoleTally.requests,
    errors,
    ...Object.fromEntries(
      verdicts.flatMap((v, i) => [
        [`rssStartMb${i + 1}`, Math.round(samples[0]?.processes[i]?.rssMb ?? 0)],
        [`rssMidMb${i + 1}`, Math.round(mid?.processes[i]?.rssMb ?? 0)],
        [`rssEndMb${i + 1}`, Math.round(samples.at(-1)?.processes[i]?.rssMb ?? 0)],
        [`rssSlopeMbPerMin${i + 1}`, v.rssSlopeMbPerMin.toFixed(2)],
        [`heapFloorSlopeMbPerMin${i + 1}`, v.heapFloorSlopeMbPerMin.toFixed(2)],
      ]),
    ),
    gatewayP50Ms: gw.p50.toFixed(1),
    gatewayP99Ms: gw.p99.toFixed(1),
    consoleP50Ms: con.p50.toFixed(1),
    consoleP99Ms: con.p99.toFixed(1),
    ...ledger.figures,
    passed: passed ? 'yes' : 'no',
  });
  return passed ? 0 : 1;
}

runSuite(main);
