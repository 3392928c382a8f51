// `npm run bench -- notify`: address-activity webhooks at the scale of the acceptance. The
// built server (its own process, notify engine on as `npm start` runs it) watches 100 000 addresses
// of ethereum/sepolia, added through the API, on a scripted node whose blocks (1 000 transfers, 100
// of them touching a watched address) appear once a second; a local receiver stamps each delivery.
// Measured: delivery after the block's appearance (p50, p99, max), the server's CPU per block and
// its memory; then the same with the addresses spread over 10 webhooks, to show that the work per
// block does not grow with the webhooks. bench/README.md describes it.
import os from 'node:os';
import { NOTIFY_LIMITS, type NotifyAddressesResult, type NotifyWebhook } from '@ebs/contract';
import { notifyAccount } from '../apps/server/src/modules/notify/notify.test-kit.ts';
import { cpuPinning, type Pinning, pin } from './support/cpu-pinning.ts';
import { passes, report, targetText } from './support/figures.ts';
import { median } from './support/median.ts';
import { address, Chain, GROUPS } from './support/notify-chain.ts';
import { checkDeliveries, deliveryReceiver, expectedDeliveries } from './support/notify-deliveries.ts';
import { scheduledNode } from './support/notify-node.ts';
import {
  type BackendCpu,
  chooseDatabase,
  databaseBackends,
  machineCpuSeconds,
  serverVersion,
} from './support/notify-readings.ts';
import {
  cpuPerBlock,
  latencyOf,
  type ShapeRun,
  SUITE,
  shapeFigures,
  shapeNotes,
  shapeTable,
  TARGET_P99_MS,
} from './support/notify-report.ts';
import { ownPostgres } from './support/postgres.ts';
import { wholeSetting } from './support/settings.ts';
import { Cleanup, server, tempDir } from './support/stack.ts';
import { runSuite } from './support/suite.ts';

const NETWORK = 'ETHEREUM_SEPOLIA';
const RPC_PATH = 'ethereum/sepolia';
const ADDRESSES = wholeSetting('BENCH_NOTIFY_ADDRESSES', 100_000);
const WARM_UP_BLOCKS = wholeSetting('BENCH_NOTIFY_WARMUP', 5);
const BLOCKS = wholeSetting('BENCH_NOTIFY_BLOCKS', 30);
const BLOCK_EVERY_MS = wholeSetting('BENCH_NOTIFY_INTERVAL_MS', 1000);
/** Seconds with the head unchanged, after the addresses are in: the engine's cost when no block comes. */
const IDLE_SECONDS = 3;
/** The number of the head block before the schedule (near Sepolia's in 2025). */
const BASE_BLOCK = 8_000_000;
/** How long after the last block's appearance its deliveries may take before they count as missing. */
const DRAIN_MS = 20_000;
const CHUNK = NOTIFY_LIMITS.addressesPerChange;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - performance.now()));
const count = (n: number) => n.toLocaleString('en-US').replaceAll(',', ' ');

interface Shape {
  key: string;
  label: string;
  webhooks: number;
}

async function runShape(
  outer: Cleanup,
  shape: Shape,
  chain: Chain,
  database: 'postgres' | 'pglite',
  pinning: Pinning | undefined,
  trouble: string[],
): Promise<ShapeRun> {
  const cleanup = new Cleanup();
  outer.add(() => cleanup.run());
  try {
    const node = await scheduledNode(cleanup, chain);
    const receiver = await deliveryReceiver(cleanup);
    const settings: Record<string, string> = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    let backends: BackendCpu | undefined;
    if (database === 'postgres') {
      const own = await ownPostgres(cleanup, `${SUITE}_${shape.key}`);
      settings.DATABASE_URL = own.url;
      backends = databaseBackends(cleanup, own.url);
    }
    const srv = await server(
      cleanup,
      await tempDir(cleanup),
      { [RPC_PATH]: node.url },
      process.env.BENCH_CPU_PROF,
      settings,
    );
    if (pinning) pin(srv.pid, pinning.servers);
    const owner = await notifyAccount(srv.baseUrl);

    // The addresses, as a customer adds them: a create with the first 1 000, then changes of 1 000.
    const perWebhook = chain.watched.length / shape.webhooks;
    const ids: string[] = [];
    const callMs: number[] = [];
    const loadStarted = performance.now();
    const timed = async <T>(call: () => Promise<{ status: number; body: { message: string; data: T } }>) => {
      const started = performance.now();
      const answer = await call();
      callMs.push(performance.now() - started);
      if (answer.status !== 200)
        throw new Error(`${shape.label}: the API answered ${answer.status}: ${answer.body.message}`);
      return answer.body.data;
    };
    for (let w = 0; w < shape.webhooks; w++) {
      const mine = chain.watched.slice(w * perWebhook, (w + 1) * perWebhook);
      const created = await timed(() =>
        owner.api.post<NotifyWebhook>('', {
          name: `Bench ${w + 1}`,
          network: NETWORK,
          url: receiver.url,
          addresses: mine.slice(0, CHUNK),
        }),
      );
      ids.push(created.id);
      for (let start = CHUNK; start < mine.length; start += CHUNK) {
        const changed = await timed(() =>
          owner.api.patch<NotifyAddressesResult>(`/${created.id}/addresses`, { add: mine.slice(start, start + CHUNK) }),
        );
        if (changed.added !== Math.min(CHUNK, mine.length - start)) {
          throw new Error(`${shape.label}: a change of ${CHUNK} addresses added ${changed.added}`);
        }
      }
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    // A head read after the last change is a scanner's turn: it holds the lease, and its cursor is at
    // the block after the head (set when the webhook was made, or by its first turn), so it reads
    // every scheduled block.
    const headReads = node.aloneHeadReads();
    for (let i = 0; node.aloneHeadReads() === headReads; i++) {
      if (i === 200) throw new Error(`${shape.label}: the scanner asked no head in 20 s`);
      await sleep(100);
    }

    await sleep(1000);
    const idleFrom = srv.cpuSeconds();
    await sleep(IDLE_SECONDS * 1000);
    const idleTo = srv.cpuSeconds();

    const first = WARM_UP_BLOCKS + 1;
    const tail = WARM_UP_BLOCKS + BLOCKS + 1;
    node.start(performance.now() + 200, BLOCK_EVERY_MS);
    log(`${shape.label}: ${WARM_UP_BLOCKS} warm-up blocks, then ${BLOCKS} measured, one every ${BLOCK_EVERY_MS} ms`);
    await sleepUntil(node.appearance(first));
    const cpuFrom = srv.cpuSeconds();
    const machineFrom = machineCpuSeconds();
    const benchFrom = process.cpuUsage();
    const callsFrom = node.counts();
    await backends?.sample(true);
    let rssMaxMb: number | undefined;
    for (let index = first + 1; index <= tail; index++) {
      await sleepUntil(node.appearance(index));
      if (index === tail) break;
      const rss = srv.residentMb();
      if (rss !== undefined) rssMaxMb = Math.max(rssMaxMb ?? 0, rss);
      await backends?.sample();
    }
    const cpuTo = srv.cpuSeconds();
    const machineTo = machineCpuSeconds();
    const benchUsed = process.cpuUsage(benchFrom);
    const callsTo = node.counts();
    await backends?.sample();
    const rssEnd = srv.residentMb();
    if (rssEnd !== undefined) rssMaxMb = Math.max(rssMaxMb ?? 0, rssEnd);

    const expected = expectedDeliveries(chain, { ids, perWebhook });
    const due = expected.reduce((sum, block) => sum + block.size, 0);
    const deadline = node.appearance(tail) + DRAIN_MS;
    while (receiver.arrivals.length < due && performance.now() < deadline) await sleep(100);
    const check = checkDeliveries(receiver.arrivals, expected, chain, { first, last: tail - 1 }, node.appearance);

    for (const line of srv.log.errors) trouble.push(`${shape.label}: the server logged ${line.slice(0, 300)}`);
    for (const line of srv.log.warnings) trouble.push(`${shape.label}: the server warned ${line.slice(0, 300)}`);
    const nodeCalls: Record<string, number> = {};
    for (const [method, n] of Object.entries(callsTo)) nodeCalls[method] = n - (callsFrom[method] ?? 0);
    const cpu = (from: number | undefined, to: number | undefined) =>
      from === undefined || to === undefined ? undefined : (to - from) * 1000;
    const idleMs = cpu(idleFrom, idleTo);
    const serverMs = cpu(cpuFrom, cpuTo);
    const windowSeconds = (node.appearance(tail) - node.appearance(first)) / 1000;
    const machineMs = cpu(machineFrom, machineTo);
    // What the rest of the machine used meanwhile: the run's own processes taken out.
    const othersMs =
      machineMs === undefined || serverMs === undefined
        ? undefined
        : machineMs - serverMs - (backends?.ms() ?? 0) - (benchUsed.user + benchUsed.system) / 1000;
    return {
      label: shape.label,
      webhooks: shape.webhooks,
      addresses: chain.watched.length,
      blocks: BLOCKS,
      windowSeconds,
      check,
      cpuMs: serverMs,
      otherCores: othersMs === undefined ? undefined : Math.max(0, othersMs / 1000 / windowSeconds),
      idleMsPerSecond: idleMs === undefined ? undefined : idleMs / IDLE_SECONDS,
      databaseCpuMs: backends?.ms(),
      rssMaxMb,
      nodeCalls,
      received: { deliveries: receiver.arrivals.length, connections: receiver.connections() },
      loading: { seconds: loadSeconds, calls: callMs.length, medianMs: median(callMs), slowestMs: Math.max(...callMs) },
    };
  } finally {
    await cleanup.run();
  }
}

runSuite(async (cleanup) => {
  const started = performance.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const pinning = cpuPinning();
  if (pinning) pin(process.pid, pinning.bench);
  const database = await chooseDatabase();
  const watched = Array.from({ length: ADDRESSES }, (_, i) => address('watched', i));
  const chain = new Chain(BASE_BLOCK, WARM_UP_BLOCKS + BLOCKS + 1, watched);
  const per = ADDRESSES / GROUPS;
  const shapes: Shape[] = [
    { key: 'one', label: `1 webhook × ${count(ADDRESSES)} addresses`, webhooks: 1 },
    { key: 'many', label: `${GROUPS} webhooks × ${count(per)} addresses`, webhooks: GROUPS },
  ];
  const trouble: string[] = [];
  const runs: ShapeRun[] = [];
  for (const shape of shapes) {
    const run = await runShape(cleanup, shape, chain, database, pinning, trouble);
    runs.push(run);
    log(
      `  p50 ${latencyOf(run, 0.5).toFixed(0)} ms, p99 ${latencyOf(run, 0.99).toFixed(0)} ms, CPU ${cpuPerBlock(run)?.toFixed(1)} ms a block`,
    );
  }
  const problems = runs.flatMap((run) => run.check.problems.map((p) => `${run.label}: ${p}`));
  const figures = shapeFigures(runs, problems.length);

  const cpus = os.cpus();
  const lines = [
    '',
    `EBS address-activity webhooks benchmark, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ` +
      `${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), load average ${loadBefore.toFixed(2)} before the run, ` +
      (pinning ? `bench (node, receiver) on CPU ${pinning.bench}, server on CPU ${pinning.servers}` : 'no CPU pinning'),
    `${serverVersion()} on ${database === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded default)'}; ${RPC_PATH}, a block of 1 000 transfers ` +
      `(500 native, 500 ERC-20) every ${BLOCK_EVERY_MS} ms, 100 of them (50 + 50) touching a watched address; ` +
      `latency: delivery's arrival − the moment the node first answered eth_blockNumber with its block`,
    '',
    shapeTable(runs, database === 'postgres'),
    '',
    ...runs.flatMap(shapeNotes),
    '',
  ];
  const [one, many] = runs;
  if (one && many) {
    const oneCpu = cpuPerBlock(one);
    const manyCpu = cpuPerBlock(many);
    // What the many-webhooks run adds is its deliveries: the scan's work does not depend on the webhooks.
    const extra = many.webhooks - one.webhooks;
    lines.push(
      `${many.label} ÷ ${one.label}: CPU per block ${oneCpu && manyCpu ? (manyCpu / oneCpu).toFixed(2) : 'n/a'}×, ` +
        `p99 ${(latencyOf(many, 0.99) / latencyOf(one, 0.99)).toFixed(2)}×; ` +
        `the difference per extra delivery (${extra} a block): server ${oneCpu && manyCpu ? ((manyCpu - oneCpu) / extra).toFixed(1) : 'n/a'} ms` +
        (one.databaseCpuMs !== undefined && many.databaseCpuMs !== undefined
          ? `, PostgreSQL ${((many.databaseCpuMs - one.databaseCpuMs) / many.blocks / extra).toFixed(1)} ms`
          : ''),
    );
  }
  for (const figure of figures.filter((f) => f.target)) {
    lines.push(
      `${figure.name}: ${figure.value} ${figure.unit}, target ${targetText(figure)}: ${passes(figure) ? 'met' : 'NOT met'}`,
    );
  }
  lines.push(`whole suite: ${((performance.now() - started) / 1000).toFixed(0)} s (target p99 ≤ ${TARGET_P99_MS} ms)`);
  log(lines.join('\n'));
  for (const figure of figures) report(figure);
  trouble.push(...problems.slice(0, 20));
  if (problems.length > 20) trouble.push(`... and ${problems.length - 20} more`);
  if (trouble.length === 0) return 0;
  log(`\n!!! BENCHMARK FAILED: the figures above are not to be trusted !!!\n  ${trouble.join('\n  ')}`);
  return 1;
});
