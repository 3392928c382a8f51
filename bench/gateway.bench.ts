// `npm run bench`: the RPC gateway against the same Anvil node reached directly (and through nginx
// where installed), measured in one run, printed as ratios. docs/performance.md explains the figures.
import os from 'node:os';
import { failures, type Measurement, measure, RPC_BODY, type Target } from './support/load.ts';
import { nginxBinary, nginxProxy } from './support/nginx.ts';
import { bestOf, compare, comparisonLine, latencyDoubts, problems, table } from './support/report.ts';
import { anvil, Cleanup, customer, meteredUsage, server, tempDir } from './support/stack.ts';

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0 (got "${raw}")`);
  return value;
}

const DURATION = setting('BENCH_DURATION', 8);
const WARMUP = setting('BENCH_WARMUP', 2);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 32);
const ROUNDS = setting('BENCH_ROUNDS', 2);
/** How long the gateway may take to write what it counted (its flush runs every 5 s by default). */
const METERING_WAIT_MS = 10_000;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function call(url: string): Promise<unknown> {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: RPC_BODY });
  if (!answer.ok) throw new Error(`${url.split('?')[0]} answered HTTP ${answer.status}: ${await answer.text()}`);
  return answer.json();
}

async function main(cleanup: Cleanup): Promise<number> {
  const started = Date.now();
  // Anything else running on the machine takes CPU from the processes measured: shown with the figures.
  const loadBefore = os.loadavg()[0] ?? 0;
  const dir = await tempDir(cleanup);
  const upstream = await anvil(cleanup);
  const profileDir = process.env.BENCH_CPU_PROF;
  const srv = await server(cleanup, dir, upstream, profileDir);
  const holder = await customer(srv);
  const targets: Target[] = [{ name: 'direct (Anvil)', url: upstream }];
  const nginx = nginxBinary();
  if (nginx) targets.push({ name: 'nginx', url: await nginxProxy(cleanup, nginx, dir, upstream) });
  targets.push({ name: 'gateway', url: holder.gatewayUrl });
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s${nginx ? '' : ' (no nginx installed: no nginx row)'}`);

  // Every path must give the node's own answer before it is timed.
  const expected = JSON.stringify(await call(upstream));
  for (const target of targets) {
    const got = JSON.stringify(await call(target.url));
    if (got !== expected) throw new Error(`${target.name} answered ${got}, the node ${expected}`);
  }
  let gatewayAnswers = 1;

  const all: Measurement[] = [];
  for (const target of targets) {
    log(`warm-up ${target.name} (${WARMUP} s)`);
    const warm = await measure(target, WARMUP, CONNECTIONS, srv.cpuSeconds);
    all.push(warm);
    if (target.name === 'gateway') gatewayAnswers += warm.answers;
  }
  const rounds = new Map<string, Measurement[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const m = await measure(target, DURATION, CONNECTIONS, srv.cpuSeconds);
      all.push(m);
      rounds.get(target.name)?.push(m);
      if (target.name === 'gateway') gatewayAnswers += m.answers;
      log(
        `round ${round}/${ROUNDS} ${target.name}: ${Math.round(m.requestsPerSecond)} req/s, p50 ${m.p50.toFixed(2)} ms`,
      );
    }
  }

  // The gateway counts in memory and writes every few seconds: what it answered must all be metered.
  // It may meter a few more: requests still in flight when a run stopped are served and counted.
  const deadline = Date.now() + METERING_WAIT_MS;
  let metered = await meteredUsage(holder);
  while (metered < gatewayAnswers && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    metered = await meteredUsage(holder);
  }

  const best = targets.map((t) => bestOf(rounds.get(t.name) ?? []));
  const direct = best[0] as Measurement;
  const comparisons = best.slice(1).map((m) => compare(m, direct));
  const trouble = all.flatMap((m, i) => problems(m, i < targets.length ? `${m.target} warm-up` : m.target));
  if (metered < gatewayAnswers) trouble.push(`gateway: metered ${metered} requests of ${gatewayAnswers} answered`);
  for (const line of srv.log.errors) trouble.push(`server logged: ${line.slice(0, 300)}`);
  const doubts = all.map(latencyDoubts).filter((doubt) => doubt !== undefined);

  const cpus = os.cpus();
  console.log(
    `\nEBS gateway benchmark, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ` +
      `${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), PGlite (embedded default), ` +
      `load average ${loadBefore.toFixed(2)} before the run`,
  );
  console.log(
    `eth_blockNumber, ${CONNECTIONS} connection${CONNECTIONS === 1 ? '' : 's'}, best of ${ROUNDS} interleaved rounds of ${DURATION} s ` +
      `per target after a ${WARMUP} s warm-up each\n`,
  );
  console.log(table(best));
  console.log('');
  for (const c of comparisons) console.log(comparisonLine(c));
  for (const target of targets) {
    const list = (rounds.get(target.name) ?? []).map((m) => Math.round(m.requestsPerSecond)).join(', ');
    console.log(`rounds of ${target.name}: ${list} req/s`);
  }
  console.log(`usage metered by the gateway: ${metered} requests for ${gatewayAnswers} answered`);
  console.log(
    `server log: ${srv.log.clientAborts} "Request aborted" errors (requests in flight when a timed run stopped), ` +
      `${srv.log.errors.length} other errors`,
  );
  console.log(
    JSON.stringify({
      bench: 'gateway',
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus.length,
      loadBefore,
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      results: best.map(({ target, requestsPerSecond, p50, p90, p99, answers, serverCpu, clientCpu }) => ({
        target,
        requestsPerSecond: Math.round(requestsPerSecond),
        p50,
        p90,
        p99,
        answers,
        serverCpu,
        clientCpu,
      })),
      comparisons,
      metered,
      gatewayAnswers,
      serverClientAborts: srv.log.clientAborts,
      serverErrors: srv.log.errors.length,
      failures: all.reduce((sum, m) => sum + failures(m), 0),
    }),
  );
  for (const doubt of doubts) console.log(`WARNING ${doubt}`);
  if (profileDir) console.log(`the server's CPU profile is written to ${profileDir} when it stops`);
  if (trouble.length > 0) {
    console.error(`\n!!! BENCHMARK FAILED: the figures above are not to be trusted !!!\n  ${trouble.join('\n  ')}`);
    return 1;
  }
  return 0;
}

const cleanup = new Cleanup();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanup.run().then(() => process.exit(130));
  });
}
main(cleanup)
  .catch((error: unknown) => {
    console.error(`\n!!! BENCHMARK FAILED !!!\n${error instanceof Error ? (error.stack ?? error.message) : error}`);
    return 1;
  })
  .then(async (code) => {
    await cleanup.run();
    process.exit(code);
  });
