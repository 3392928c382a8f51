// `node --import tsx bench/jobs.bench.ts`: the background jobs at scale. The daily billing job for
// 10 000 accounts × 10 resources, on PostgreSQL (judged) and on PGlite (shown), and one full scan
// of the forwarding scanner over 10 000 enabled wallets of one network against a local Anvil node,
// through Multicall3 (judged) and by JSON-RPC batches (shown). docs/performance.md explains them.
import os from 'node:os';
import { type Figure, passes, report, targetText } from './support/figures.ts';
import { measureScan } from './support/forwarding-scan.ts';
import { ownPglite, ownPostgres } from './support/postgres.ts';
import { wholeSetting } from './support/settings.ts';
import { tempDir } from './support/stack.ts';
import { runSuite } from './support/suite.ts';
import { measureBilling } from './support/usage-billing.ts';

const SUITE = 'jobs';

const ACCOUNTS = wholeSetting('BENCH_JOBS_ACCOUNTS', 10_000);
const WALLETS = wholeSetting('BENCH_JOBS_WALLETS', 10_000);

const log = (line: string) => process.stderr.write(`${line}\n`);
const count = (n: number) => n.toLocaleString('en-US').replaceAll(',', ' ');
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

runSuite(async (cleanup) => {
  const started = performance.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const figures: Figure[] = [];
  const notes: string[] = [];
  const problems: string[] = [];
  const { url, db } = await ownPostgres(cleanup, SUITE);

  const billingName = `billing job, ${count(ACCOUNTS)} accounts × 10 resources`;
  for (const database of ['PostgreSQL', 'PGlite'] as const) {
    const dataDir = await tempDir(cleanup);
    log(`billing on ${database}: seeding ${count(ACCOUNTS)} accounts with a day of usage in 10 resources`);
    const target = database === 'PostgreSQL' ? db : await ownPglite(cleanup, dataDir);
    const billing = await measureBilling(target, ACCOUNTS, dataDir);
    log(
      `  seeded in ${billing.seedSeconds.toFixed(1)} s; one run ${billing.seconds.toFixed(2)} s, the next ${billing.againSeconds.toFixed(2)} s`,
    );
    figures.push({
      suite: SUITE,
      name: `${billingName}, ${database === 'PostgreSQL' ? 'PostgreSQL' : 'PGlite (embedded default)'}`,
      value: round(billing.seconds),
      unit: 's',
      ...(database === 'PostgreSQL' ? { target: { max: 10 } } : {}),
    });
    notes.push(
      `${database}: ${billing.run.transactions} transactions for ${billing.run.records} usage records, ` +
        `${billing.run.changed} accounts changed status; the next run billed ${billing.again.transactions} ` +
        `in ${billing.againSeconds.toFixed(2)} s`,
    );
    problems.push(...billing.problems.map((p) => `billing on ${database}: ${p}`));
  }

  log(`forwarding scan: seeding ${count(WALLETS)} wallets (their addresses derived from the seed, on every core)`);
  const scan = await measureScan(cleanup, db, url, WALLETS);
  const { node, wallets, funding } = scan.setUpSeconds;
  log(
    `  node ${node.toFixed(1)} s, wallets ${wallets.toFixed(1)} s, warm-up scan ${scan.warmUpSeconds.toFixed(2)} s, funding ${funding.toFixed(1)} s`,
  );
  for (const timed of scan.scans) {
    const production = timed.reads === 'Multicall3';
    figures.push({
      suite: SUITE,
      name: `forwarding scan, ${count(WALLETS)} wallets on one network, ${production ? 'Multicall3' : 'JSON-RPC batches (no Multicall3)'}`,
      value: round(timed.seconds),
      unit: 's',
      ...(production ? { target: { max: 2 } } : {}),
    });
    notes.push(
      `scan by ${timed.reads}: ${timed.requests} HTTP requests to the node carrying ${timed.calls} JSON-RPC calls; ` +
        `${timed.result.wallets} wallets read, ${timed.result.opened} forwards opened, ${timed.result.unreadable} unreadable`,
    );
  }
  problems.push(...scan.problems.map((p) => `forwarding scan: ${p}`));

  const cpus = os.cpus();
  const width = Math.max(...figures.map((f) => f.name.length));
  const lines = [
    '',
    `EBS jobs benchmark, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus.length} CPUs ` +
      `(${cpus[0]?.model.trim() ?? 'unknown'}), load average ${loadBefore.toFixed(2)} before the run`,
    '',
    `${'figure'.padEnd(width)}  ${'seconds'.padStart(7)}  ${'target'.padStart(6)}  result`,
    ...figures.map((f) => {
      const verdict = passes(f);
      const result = verdict === undefined ? 'shown' : verdict ? 'pass' : 'FAIL';
      return `${f.name.padEnd(width)}  ${f.value.toFixed(2).padStart(7)}  ${targetText(f).padStart(6)}  ${result}`;
    }),
    '',
    ...notes,
    `whole suite: ${((performance.now() - started) / 1000).toFixed(0)} s`,
  ];
  log(lines.join('\n'));
  for (const figure of figures) report(figure);
  if (problems.length > 0) {
    log(
      `\n!!! BENCHMARK FAILED: wrong answers, the figures above are not to be trusted !!!\n  ${problems.join('\n  ')}`,
    );
    return 1;
  }
  return 0;
});
