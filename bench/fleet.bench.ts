// `npm run bench` fleet suite: the gateway routing distinct calls across a network's three nodes (a
// fast one, one 20 ms slower, one 50 blocks behind), beside the same load sent straight to the fast
// node and through the gateway to one such node alone: throughput and latency, each node's share of
// the calls, and the answers given from the lagging node's head (none may be). docs/performance.md
// explains the figures.
import os from 'node:os';
import { Client } from 'undici';
import { cpuPinning, pin } from './support/cpu-pinning.ts';
import {
  AnswerTally,
  addCounts,
  countsBetween,
  HEAD,
  LAG_BLOCKS,
  NODE_NAMES,
  type NodeName,
  noCalls,
  nodeCounts,
  SLOWER_MS,
  startFleet,
  untilLagging,
  upstreamFigures,
} from './support/fleet-nodes.ts';
import { type FleetRun, fleetFigures, fleetTables, PATH_NAMES, PATHS, type Path } from './support/fleet-report.ts';
import { type Latency, latencyOf, type Sampling } from './support/latency.ts';
import { distinctBalanceCalls, failures, type Load, type Measurement, measure, type Target } from './support/load.ts';
import { finishSuite, latencyDoubts, problems } from './support/report.ts';
import { wholeSetting } from './support/settings.ts';
import { type Cleanup, cpuSecondsOf, customer, fixedUpstream, server, tempDir } from './support/stack.ts';
import { runSuite } from './support/suite.ts';

/** The network of the three nodes. */
const NETWORK = 'ethereum/sepolia';
/** The reference's network: one node like the fast one, alone behind the same gateway. */
const ONE_NODE_NETWORK = 'ethereum/mainnet';
const CONNECTIONS = 64;
const DURATION = wholeSetting('BENCH_DURATION', 5);
const ROUNDS = wholeSetting('BENCH_ROUNDS', 3);
const WARMUP = wholeSetting('BENCH_WARMUP', 2);
/** How often the router reads each node's head: short, so that the lag is seen soon after the start. */
const HEAD_POLL_MS = 200;
const SAMPLING: Sampling = {
  warmup: 100,
  samples: wholeSetting('BENCH_LATENCY_SAMPLES', 2000),
  maxSeconds: 5,
  minSamples: 200,
};
const LATENCY_ROUNDS = 2;

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One call at a time over one kept-alive connection, each a distinct call; every answer is tallied. */
function oneAtATime(cleanup: Cleanup, url: string, tally: AnswerTally): () => Promise<string> {
  const { origin, pathname, search } = new URL(url);
  const client = new Client(origin);
  cleanup.add(() => client.close());
  const next = distinctBalanceCalls(1);
  return async () => {
    const answer = await client.request({
      path: `${pathname}${search}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: next(),
    });
    const text = await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`${origin} answered HTTP ${answer.statusCode}: ${text}`);
    tally.count(text);
    return text;
  };
}

/** Every other round in reverse order: a machine that drifts favours no path. */
const inRound = (round: number) => (round % 2 ? [...PATHS] : [...PATHS].reverse());

async function main(cleanup: Cleanup): Promise<number> {
  const started = Date.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const pinning = cpuPinning();
  if (pinning) pin(process.pid, pinning.bench);
  const fleet = await startFleet(cleanup, NETWORK);
  const alone = await fixedUpstream(cleanup, ONE_NODE_NETWORK, { head: HEAD, marked: true });
  const srv = await server(cleanup, await tempDir(cleanup), {}, process.env.BENCH_CPU_PROF, {
    RPC_UPSTREAMS: JSON.stringify({
      [NETWORK]: NODE_NAMES.map((name) => fleet[name].url),
      [ONE_NODE_NETWORK]: [alone.url],
    }),
    RPC_HEAD_POLL_MS: String(HEAD_POLL_MS),
  });
  if (pinning) {
    for (const pid of [srv.pid, alone.pid, ...NODE_NAMES.map((name) => fleet[name].pid)]) pin(pid, pinning.servers);
  }
  const holder = await customer(srv);
  const targets: Record<Path, Target> = {
    direct: { name: PATH_NAMES.direct, url: fleet.fast.url, cpuSeconds: () => cpuSecondsOf(fleet.fast.pid) },
    fleet: { name: PATH_NAMES.fleet, url: holder.gatewayUrl(NETWORK), cpuSeconds: srv.cpuSeconds },
    oneNode: { name: PATH_NAMES.oneNode, url: holder.gatewayUrl(ONE_NODE_NETWORK), cpuSeconds: srv.cpuSeconds },
  };
  const tallies = { direct: new AnswerTally(), fleet: new AnswerTally(), oneNode: new AnswerTally() };
  const calls = {
    direct: oneAtATime(cleanup, targets.direct.url, tallies.direct),
    fleet: oneAtATime(cleanup, targets.fleet.url, tallies.fleet),
    oneNode: oneAtATime(cleanup, targets.oneNode.url, tallies.oneNode),
  };

  // Every path must give the fast node's own answer (a network's first call starts its nodes).
  const expected = await calls.direct();
  for (const path of ['fleet', 'oneNode'] as const) {
    const got = await calls[path]();
    if (got !== expected) throw new Error(`${targets[path].name} answered ${got}, the fast node ${expected}`);
  }
  const view = await untilLagging(srv, NETWORK, fleet, 15_000);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s; the router's view of ${NETWORK}:\n${view}`);

  const next = distinctBalanceCalls(1);
  const load: Load = { body: next().toString(), calls: 1, connections: CONNECTIONS, next };
  const all: Measurement[] = [];
  const timed = async (path: Path, seconds: number) => {
    const m = await measure(targets[path], seconds, load, { onBody: tallies[path].count });
    all.push(m);
    return m;
  };
  /** Runs `work` on a path, adding the calls each node was sent meanwhile to `into` when it is the fleet. */
  const counting = async <T>(path: Path, into: Record<NodeName, number>, work: () => Promise<T>): Promise<T> => {
    if (path !== 'fleet') return work();
    const before = await nodeCounts(fleet);
    const result = await work();
    addCounts(into, countsBetween(before, await nodeCounts(fleet)));
    return result;
  };

  const routerBefore = await upstreamFigures(srv, NETWORK);
  for (const path of PATHS) await timed(path, WARMUP);
  const rounds: Record<Path, Measurement[]> = { direct: [], fleet: [], oneNode: [] };
  const loadedCalls = noCalls();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const path of inRound(round))
      rounds[path].push(await counting(path, loadedCalls, () => timed(path, DURATION)));
  }
  // The fleet and the one node through the same gateway at the same time, half the connections each:
  // a machine whose speed swings slows both alike, so the ratio of their latencies is the fleet's own.
  const half: Load = { ...load, connections: CONNECTIONS / 2 };
  const together: Array<[Measurement, Measurement]> = [];
  const togetherCalls = noCalls();
  for (let round = 1; round <= ROUNDS; round++) {
    const both = await counting('fleet', togetherCalls, () =>
      Promise.all([
        measure(targets.fleet, DURATION, half, { onBody: tallies.fleet.count }),
        measure(targets.oneNode, DURATION, half, { onBody: tallies.oneNode.count }),
      ]),
    );
    all.push(...both);
    together.push(both);
  }
  const routerAfter = await upstreamFigures(srv, NETWORK);

  // One call at a time: what one user waits for, without other calls queueing in front of it.
  const latencies: Record<Path, Latency[]> = { direct: [], fleet: [], oneNode: [] };
  const quietCalls = noCalls();
  for (let round = 1; round <= LATENCY_ROUNDS; round++) {
    for (const path of inRound(round)) {
      latencies[path].push(await counting(path, quietCalls, () => latencyOf(calls[path], SAMPLING)));
    }
  }

  const run: FleetRun = {
    connections: CONNECTIONS,
    rounds,
    together,
    latencies,
    loadedCalls,
    togetherCalls,
    quietCalls,
    tallies,
    fleet,
    routerBefore,
    routerAfter,
  };
  const wrong = PATHS.reduce((sum, path) => sum + tallies[path].wrong, 0);
  const trouble = all.flatMap((m) => problems(m, m.target));
  if (wrong > 0) trouble.push(`${wrong} answers carried neither the head nor the lagging node's head`);
  for (const line of srv.log.errors) trouble.push(`server logged: ${line.slice(0, 300)}`);
  // A node marked down or limited meanwhile: the shares are then not the router's choice among three.
  for (const line of srv.log.warnings) if (/upstream/i.test(line)) trouble.push(`server warned: ${line.slice(0, 300)}`);

  const cpus = os.cpus();
  console.error(
    `\nEBS fleet benchmark, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ` +
      `${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), load average ${loadBefore.toFixed(2)} before the run, ` +
      (pinning ? `load generator on CPU ${pinning.bench}, servers on CPU ${pinning.servers}` : 'no CPU pinning'),
  );
  console.error(
    `${NETWORK}: a fast node (head ${HEAD}), a slow one (+${SLOWER_MS} ms), a lagging one (${LAG_BLOCKS} blocks behind); ` +
      `distinct calls (eth_getBalance at "latest"), ${CONNECTIONS} connections, best of ${ROUNDS} interleaved rounds of ${DURATION} s\n`,
  );
  console.error(fleetTables(run));
  for (const doubt of all.map(latencyDoubts)) if (doubt) console.error(`WARNING ${doubt}`);
  const failed = all.reduce((sum, m) => sum + failures(m), 0);
  return finishSuite('fleet', fleetFigures(run), failed, trouble);
}

runSuite(main);
