// The web app's weight and Lighthouse scores, in one run: the JavaScript every route loads (gzip) and
// Lighthouse's performance and accessibility on /login, /accounts and an account's overview with data.
// docs/performance.md explains the figures.
import os from 'node:os';
import { type Figure, passes, report, targetText } from './support/figures.ts';
import { firstDataCalls, THROTTLE } from './support/first-data.ts';
import { type Audit, CATEGORIES, startAuditor } from './support/lighthouse.ts';
import { median } from './support/median.ts';
import { launchChromium, type RouteScripts, routeScripts, signedInContext } from './support/page-scripts.ts';
import {
  admin,
  anvil,
  type Cleanup,
  customer,
  type KeyHolder,
  meteredUsage,
  type Server,
  server,
  tempDir,
} from './support/stack.ts';
import { runSuite } from './support/suite.ts';
import { ensureWebBuild } from './support/web-build.ts';
import { auditLines, filesLine, medianScores, scriptsTable } from './support/web-report.ts';
import { webRoutes } from './support/web-routes.ts';

const SUITE = 'web';
/** The targets: KB of gzipped JavaScript, Lighthouse scores out of 100. */
const LOGIN_MAX_KB = 180;
const ROUTE_MAX_KB = 350;
const SCORE_MIN = 95;
/** The budget: the first data call of a cold load of the overview starts within this many ms. */
const FIRST_DATA_MAX_MS = 300;
const FIRST_DATA_RUNS = 5;
/** Gateway calls made for the seeded account, so that its overview charts have usage to draw. */
const SEEDED_CALLS = 20;

function lighthouseRuns(): number {
  const raw = process.env.BENCH_LIGHTHOUSE_RUNS ?? '3';
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`BENCH_LIGHTHOUSE_RUNS must be a whole number above 0 (got "${raw}")`);
  return runs;
}

type FirstCallRun = Awaited<ReturnType<typeof firstDataCalls>>;

const log = (line: string) => process.stderr.write(`${line}\n`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const limitOf = (m: RouteScripts) => (m.route.path === '/login' ? LOGIN_MAX_KB : ROUTE_MAX_KB);

/**
 * The account gets what a customer's account has: a deposit and an API key (both from customer())
 * and metered usage for its charts; its owner is an ambassador, so that /ambassador-program shows
 * its page rather than sending them back to /accounts.
 */
async function seed(srv: Server, holder: KeyHolder): Promise<void> {
  admin(srv, 'ambassador', 'grant', '--email', holder.email, '--rate', '0.1');
  for (let i = 0; i < SEEDED_CALLS; i++) {
    const answer = await fetch(holder.gatewayUrl('ethereum/mainnet'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_blockNumber', params: [] }),
    });
    if (!answer.ok) throw new Error(`the gateway answered HTTP ${answer.status}`);
    await answer.arrayBuffer();
  }
  // The gateway counts in memory and writes every few seconds.
  for (let i = 0; (await meteredUsage(holder)) < SEEDED_CALLS; i++) {
    if (i === 60) throw new Error('the seeded gateway calls were not metered in 15 s');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main(cleanup: Cleanup): Promise<number> {
  const started = performance.now();
  const runs = lighthouseRuns();
  const loadBefore = os.loadavg()[0] ?? 0;
  const built = ensureWebBuild(log);
  log(built ? `web app built in ${built.toFixed(1)} s` : 'web app build is fresh');
  const dir = await tempDir(cleanup);
  const node = await anvil(cleanup);
  const srv = await server(cleanup, dir, { 'ethereum/mainnet': node.url }, undefined);
  const holder = await customer(srv);
  await seed(srv, holder);
  log(`server ready with a seeded account at ${seconds(started)}`);

  const browser = await launchChromium(cleanup);
  const signedOut = await browser.newContext();
  const signedIn = await signedInContext(browser, srv.baseUrl, holder.email, holder.password);
  const measured: RouteScripts[] = [];
  for (const route of webRoutes(holder.accountId)) {
    measured.push(await routeScripts(route.signedIn ? signedIn : signedOut, srv.baseUrl, route));
  }
  // A returning user: the routes above have left the user record in the context's storage.
  const overviewUrl = `${srv.baseUrl}/account/${holder.accountId}/overview`;
  const firstCalls = { early: [] as FirstCallRun[], late: [] as FirstCallRun[] };
  for (let i = 0; i < FIRST_DATA_RUNS; i++) {
    firstCalls.early.push(await firstDataCalls(browser, signedIn, overviewUrl));
    firstCalls.late.push(await firstDataCalls(browser, signedIn, overviewUrl, true));
  }
  await browser.close();
  log(`JavaScript of ${measured.length} routes measured at ${seconds(started)}`);

  // /login first: once signed in, the console sends /login on to /accounts.
  const auditor = await startAuditor(cleanup);
  const pages = { login: '/login', accounts: '/accounts', overview: `/account/${holder.accountId}/overview` };
  const audits = new Map<string, Audit[]>([
    ['/login', []],
    ['/accounts', []],
    ['/account/{id}/overview', []],
  ]);
  for (let i = 0; i < runs; i++) audits.get('/login')?.push(await auditor.audit(srv.baseUrl + pages.login, '/login'));
  await auditor.signIn(srv.baseUrl, holder.email, holder.password);
  for (let i = 0; i < runs; i++) {
    audits.get('/accounts')?.push(await auditor.audit(srv.baseUrl + pages.accounts, '/accounts'));
    audits
      .get('/account/{id}/overview')
      ?.push(await auditor.audit(srv.baseUrl + pages.overview, '/account/{id}/overview'));
  }
  log(`Lighthouse done at ${seconds(started)}`);

  const round = (value: number) => Math.round(value * 10) / 10;
  const figures: Figure[] = measured.map((m) => ({
    suite: SUITE,
    name: `JS loaded by ${m.route.pattern}${m.route.signedIn ? '' : ' (signed out)'}`,
    value: round(m.gzipKb),
    unit: 'KB gzip',
    target: { max: limitOf(m) },
  }));
  const largest = measured.reduce((a, b) => (b.gzipKb > a.gzipKb ? b : a));
  figures.push({
    suite: SUITE,
    name: `JS of the largest route (${largest.route.pattern})`,
    value: round(largest.gzipKb),
    unit: 'KB gzip',
    target: { max: ROUTE_MAX_KB },
  });
  const throttled = `${THROTTLE.latencyMs} ms RTT, ${THROTTLE.mbitPerSecond} Mbit/s, median of ${FIRST_DATA_RUNS}`;
  const medianOf = (runs: FirstCallRun[], pick: (run: FirstCallRun) => number | null) =>
    round(median(runs.map(pick).filter((ms): ms is number => ms !== null)));
  figures.push(
    {
      suite: SUITE,
      name: `first data call of a cold load of /account/{id}/overview (${throttled})`,
      value: medianOf(firstCalls.early, (run) => run.firstDataMs),
      unit: 'ms',
      target: { max: FIRST_DATA_MAX_MS },
    },
    {
      suite: SUITE,
      name: `first account data call of that load (${throttled})`,
      value: medianOf(firstCalls.early, (run) => run.firstAccountDataMs),
      unit: 'ms',
    },
    {
      suite: SUITE,
      name: `reference: first data call without the early start (boot.js blocked; ${throttled})`,
      value: medianOf(firstCalls.late, (run) => run.firstDataMs),
      unit: 'ms',
    },
    {
      suite: SUITE,
      name: `reference: first account data call without the early start (${throttled})`,
      value: medianOf(firstCalls.late, (run) => run.firstAccountDataMs),
      unit: 'ms',
    },
  );
  for (const [page, pageRuns] of audits) {
    const scores = medianScores(pageRuns);
    for (const category of CATEGORIES) {
      figures.push({
        suite: SUITE,
        name: `Lighthouse ${category}, ${page} (desktop, median of ${runs})`,
        value: scores[category],
        unit: 'score',
        target: { min: SCORE_MIN },
      });
    }
  }

  const login = measured.find((m) => m.route.path === pages.login);
  log(
    `\nEBS web benchmark, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${os.cpus().length} CPUs, ` +
      `load average ${loadBefore.toFixed(2)} before the run, ${seconds(started)} in all`,
  );
  log(
    'JavaScript requested by a first visit of each route: KB raw (decoded), KB gzip (each file gzipped at ' +
      'level 9 by the bench, whatever the server sent: the figure judged)\n',
  );
  log(scriptsTable(measured, limitOf));
  log('\nlargest files:');
  for (const m of new Set([login, largest])) if (m) log(`  ${filesLine(m, 8)}`);
  log(`\nLighthouse ${auditor.version}, desktop preset, ${auditor.browser}`);
  for (const [page, pageRuns] of audits) log(`\n${auditLines(page, pageRuns).join('\n')}`);
  log('');
  for (const figure of figures) {
    log(`${figure.name}: ${figure.value} ${figure.unit} (${targetText(figure)}) ${passes(figure) ? 'pass' : 'FAIL'}`);
    report(figure);
  }
  if (srv.log.errors.length > 0) {
    log(`\n!!! BENCHMARK FAILED: the server logged errors !!!\n  ${srv.log.errors.join('\n  ')}`);
    return 1;
  }
  return 0;
}

runSuite(main);
