// `npm run bench` gateway suite: the RPC gateway against the same upstream reached directly and
// through nginx, for a fixed-answer upstream and a real Anvil node, single calls and batches, one
// and many connections, all measured in one run and printed as ratios. docs/performance.md explains
// the figures.
import os from 'node:os';
import { type CreatedApiKey, KNOWN_RPC_METHODS, rpcUrl } from '@ebs/contract';
import { cpuPinning, pin } from './support/cpu-pinning.ts';
import type { Figure } from './support/figures.ts';
import { type KeyLists, keyCheckCost } from './support/key-check-cost.ts';
import { failures, type Load, type Measurement, measure, RPC_BODY, rpcBatch, type Target } from './support/load.ts';
import { median } from './support/median.ts';
import { ensureNginx, nginxProxy } from './support/nginx.ts';
import { bestOf, compare, comparisonLine, finishSuite, latencyDoubts, problems, table } from './support/report.ts';
import { wholeSetting } from './support/settings.ts';
import { type Side, type SideBySide, sideBySide, type WindowPlan } from './support/side-by-side.ts';
import {
  adminInServer,
  anvil,
  type Cleanup,
  cpuSecondsOf,
  customer,
  fixedUpstream,
  type KeyHolder,
  meteredUsage,
  minimalProxy,
  type Server,
  server,
  tempDir,
} from './support/stack.ts';
import { runSuite } from './support/suite.ts';

function list(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  const values = raw.split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v < 1))
    throw new Error(`${name} must list whole numbers (got "${raw}")`);
  return values;
}

const DURATION = wholeSetting('BENCH_DURATION', 3);
const WARMUP = wholeSetting('BENCH_WARMUP', 1);
const ROUNDS = wholeSetting('BENCH_ROUNDS', 2);
const CONNECTIONS = list('BENCH_CONNECTIONS', [1, 64]);
const BATCH = wholeSetting('BENCH_BATCH', 50);
/** Pairs of windows, and ms per window, of two gateways with their insight on and off in turn (64+ connections). */
const SWITCH_PAIRS = wholeSetting('BENCH_SWITCH_PAIRS', 40);
const SWITCH_WINDOW_MS = wholeSetting('BENCH_SWITCH_WINDOW_MS', 500);
/** How long the gateway may take to write what it counted (its flush runs every 5 s by default). */
const METERING_WAIT_MS = 10_000;
/** The networks the gateway forwards to each upstream. */
const NETWORKS = { fixed: 'polygon/mainnet', anvil: 'ethereum/mainnet' } as const;
type UpstreamName = keyof typeof NETWORKS;

const log = (line: string) => process.stderr.write(`${line}\n`);
/** The measurement of the locked-down key through the gateway. */
const LOCKED_TARGET = 'gateway, locked key';
/** The least a proxy in Node.js does per request (support/minimal-proxy.ts): the runtime's ceiling. */
const MINIMAL_TARGET = 'minimal Node proxy';

async function call(url: string, body: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${url.split('?')[0]} answered HTTP ${answer.status}: ${text}`);
  return text;
}

/** The origin the locked-down key's requests come from: a subdomain of one of its 100 (a wildcard entry). */
const LOCKED_ORIGIN = 'https://shop.site-42.example';

/**
 * The most a key's rules hold (issue: 100 origins, 100 CIDRs, 50 methods, 100 contracts), of which
 * the bench's requests match one of each that applies: their check must cost what a plain key's does.
 */
const LOCKED_LISTS: KeyLists = {
  allowedOrigins: Array.from({ length: 100 }, (_, i) =>
    i % 2 ? `https://app-${i}.bench.example` : `https://*.site-${i}.example`,
  ),
  // 99 ranges elsewhere, and the loopback the load comes from.
  allowedIps: [...Array.from({ length: 99 }, (_, i) => `10.${i}.0.0/16`), '127.0.0.0/8'],
  allowedMethods: [...KNOWN_RPC_METHODS.filter((m) => m !== 'eth_blockNumber').slice(0, 49), 'eth_blockNumber'],
  allowedContracts: Array.from({ length: 100 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`),
};

/** A second key of the customer, holding LOCKED_LISTS. */
async function lockedDownKey(holder: KeyHolder): Promise<(network: string) => string> {
  const created = await holder.client.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: 'locked' }, holder.headers);
  if (created.status !== 200) throw new Error(`key creation failed: ${created.body.message}`);
  const { keyId, key } = created.body.data.key;
  const saved = await holder.client.post(`/api/v1.0/key/${keyId}/settings`, LOCKED_LISTS, holder.headers);
  if (saved.status !== 200) throw new Error(`key settings refused: ${saved.body.message}`);
  return (network) => rpcUrl(holder.client.baseUrl, network, keyId, key);
}

/** Two gateways with their insight on and off in turn, and the control (both on). */
interface InsightWindows {
  switched: SideBySide;
  control: SideBySide;
}

interface Scenario {
  upstream: UpstreamName;
  load: Load;
  label: string;
}

/** Every upstream × body × connections; BENCH_ONLY keeps those whose label contains it (e.g. "fixed upstream, single"). */
function scenarios(): Scenario[] {
  const only = process.env.BENCH_ONLY;
  const bodies = [
    { body: RPC_BODY, calls: 1, words: 'single calls' },
    { body: rpcBatch(BATCH), calls: BATCH, words: `batches of ${BATCH}` },
  ];
  return (['fixed', 'anvil'] as const)
    .flatMap((upstream) =>
      bodies.flatMap(({ body, calls, words }) =>
        CONNECTIONS.map((connections) => ({
          upstream,
          load: { body, calls, connections },
          label: `${upstream === 'fixed' ? 'fixed upstream' : 'Anvil'}, ${words}, ${connections} connection${connections === 1 ? '' : 's'}`,
        })),
      ),
    )
    .filter((scenario) => !only || scenario.label.includes(only));
}

/** The targets of each issue target, judged by the runner; the rest is printed without one. */
function figuresOf(
  scenario: Scenario,
  best: Measurement[],
  rounds: Map<string, Measurement[]>,
  insight: InsightWindows | undefined,
): Figure[] {
  const [direct, ...others] = best as [Measurement, ...Measurement[]];
  const gateway = others.find((m) => m.target === 'gateway') as Measurement;
  const locked = others.find((m) => m.target === LOCKED_TARGET);
  const nginx = others.find((m) => m.target === 'nginx');
  const minimal = others.find((m) => m.target === MINIMAL_TARGET);
  const figures: Figure[] = [
    {
      suite: 'gateway',
      name: `gateway req/s, ${scenario.label}`,
      value: Math.round(gateway.requestsPerSecond),
      unit: 'req/s',
    },
  ];
  if (nginx) {
    figures.push({
      suite: 'gateway',
      name: `gateway ÷ nginx req/s, ${scenario.label}`,
      value: round(gateway.requestsPerSecond / nginx.requestsPerSecond, 2),
      unit: '×',
      ...(scenario.upstream === 'fixed' && scenario.load.connections >= 64 ? { target: { min: 0.8 } } : {}),
    });
  }
  if (minimal) {
    figures.push({
      suite: 'gateway',
      name: `gateway ÷ minimal Node proxy req/s, ${scenario.label}`,
      value: round(gateway.requestsPerSecond / minimal.requestsPerSecond, 2),
      unit: '×',
      ...(scenario.upstream === 'fixed' && scenario.load.connections >= 64 ? { target: { min: 0.9 } } : {}),
    });
  }
  // Rounds of targets that should be about equal interleave; their medians, not their best, are
  // compared: on a shared machine one lucky round of either would decide a ratio that should be about 1.
  const medianOf = (target: string) => median((rounds.get(target) ?? []).map((m) => m.requestsPerSecond));
  if (insight) {
    const { switched, control } = insight;
    const cpu = switched.cpuPerAnswerUs;
    figures.push(
      {
        suite: 'gateway',
        name: `insight's added server CPU per request, ${scenario.label}`,
        value: cpu ? round(cpu.on - cpu.off, 1) : Number.NaN,
        unit: 'µs',
      },
      {
        suite: 'gateway',
        name: `insight on ÷ off req/s (side by side, median of ${switched.throughput.length} pairs of windows), ${scenario.label}`,
        value: round(median(switched.throughput), 3),
        unit: '×',
        target: { min: 0.97 },
      },
      {
        // The same with both on: what the measurement reads when nothing differs.
        suite: 'gateway',
        name: `control: insight on ÷ on req/s (side by side, median of ${control.throughput.length} pairs), ${scenario.label}`,
        value: round(median(control.throughput), 3),
        unit: '×',
      },
    );
  }
  if (locked) {
    figures.push({
      suite: 'gateway',
      name: `locked-down key ÷ plain key req/s (median round), ${scenario.label}`,
      value: round(medianOf(LOCKED_TARGET) / medianOf('gateway'), 2),
      unit: '×',
      ...(scenario.load.connections >= 64 ? { target: { min: 0.97 } } : {}),
    });
  }
  figures.push({
    suite: 'gateway',
    name: `gateway added p50 over direct, ${scenario.label}`,
    value: round(gateway.p50 - direct.p50, 3),
    unit: 'ms',
    ...(scenario.load.connections === 1 ? { target: { max: 0.3 } } : {}),
  });
  return figures;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

async function main(cleanup: Cleanup): Promise<number> {
  const started = Date.now();
  // Anything else running on the machine takes CPU from the processes measured: shown with the figures.
  const loadBefore = os.loadavg()[0] ?? 0;
  const pinning = cpuPinning();
  if (pinning) pin(process.pid, pinning.bench);
  const dir = await tempDir(cleanup);
  const upstreams = { fixed: await fixedUpstream(cleanup), anvil: await anvil(cleanup) };
  const profileDir = process.env.BENCH_CPU_PROF;
  const srv = await server(
    cleanup,
    dir,
    { [NETWORKS.fixed]: upstreams.fixed.url, [NETWORKS.anvil]: upstreams.anvil.url },
    profileDir,
  );
  const holder = await customer(srv);
  const lockedUrl = await lockedDownKey(holder);
  // The gateway's per-method figures and request log cost: a second gateway like the first (its own
  // data directory, customer and key), both on the servers' cores under the same load at once, the
  // insight on in one and off in the other, switched by the operator's `rpc insight on|off` command
  // before every window (side-by-side.ts).
  // Started when first needed, so that it idles beside no other measurement.
  let twin: Server | undefined;
  const sideOf = (s: Server, h: KeyHolder): Side => ({
    target: { name: 'gateway', url: h.gatewayUrl(NETWORKS.fixed), cpuSeconds: s.cpuSeconds },
    turn: async (on) => {
      await adminInServer(s, 'rpc', 'insight', on ? 'on' : 'off');
    },
  });
  let sides: Promise<[Side, Side]> | undefined;
  const twinSides = () => {
    sides ??= (async (): Promise<[Side, Side]> => {
      twin = await server(cleanup, await tempDir(cleanup), { [NETWORKS.fixed]: upstreams.fixed.url }, undefined);
      if (pinning) pin(twin.pid, pinning.servers);
      return [sideOf(srv, holder), sideOf(twin, await customer(twin))];
    })();
    return sides;
  };
  const windowPlan: WindowPlan = {
    windows: 2 * SWITCH_PAIRS,
    windowMs: SWITCH_WINDOW_MS,
    guardMs: Math.min(100, SWITCH_WINDOW_MS / 4),
    warmupMs: 1000,
  };
  const nginx = ensureNginx(log);
  const proxies = nginx
    ? {
        fixed: await nginxProxy(cleanup, nginx, dir, upstreams.fixed.url),
        anvil: await nginxProxy(cleanup, nginx, dir, upstreams.anvil.url),
      }
    : undefined;
  const nodeProxies = {
    fixed: await minimalProxy(cleanup, upstreams.fixed.url, holder),
    anvil: await minimalProxy(cleanup, upstreams.anvil.url, holder),
  };
  if (pinning) {
    for (const pid of [
      srv.pid,
      upstreams.fixed.pid,
      upstreams.anvil.pid,
      proxies?.fixed.pid,
      proxies?.anvil.pid,
      nodeProxies.fixed.pid,
      nodeProxies.anvil.pid,
    ]) {
      pin(pid, pinning.servers);
    }
  }
  log(
    `ready in ${((Date.now() - started) / 1000).toFixed(1)} s${nginx ? '' : ' (nginx could not be found or installed: no nginx rows)'}`,
  );
  const all: Measurement[] = [];
  const figures: Figure[] = [];
  const tables: string[] = [];
  let gatewayCalls = 0;
  // The rules' own cost, in-process and alone (before the load: it holds this process's event loop).
  for (const [words, body] of [
    ['single call', RPC_BODY],
    [`batch of ${BATCH}`, rpcBatch(BATCH)],
  ] as const) {
    const cost = keyCheckCost(LOCKED_LISTS, LOCKED_ORIGIN, body);
    log(
      `key check and screen, ${words}: ${cost.plainUs.toFixed(2)} µs for a plain key, ${cost.lockedUs.toFixed(2)} µs for the locked-down key`,
    );
    figures.push({
      suite: 'gateway',
      name: `key rules' added cost per request, in-process, ${words}`,
      value: round(cost.lockedUs - cost.plainUs, 2),
      unit: 'µs',
    });
  }

  for (const scenario of scenarios()) {
    const { upstream, load } = scenario;
    // Each target's server CPU is its own process's: the upstream's for direct, nginx's workers', the proxy's.
    const cpuOf = (pid: number | undefined) => () => cpuSecondsOf(pid);
    const targets: Target[] = [
      { name: 'direct', url: upstreams[upstream].url, cpuSeconds: cpuOf(upstreams[upstream].pid) },
    ];
    if (proxies) targets.push({ name: 'nginx', url: proxies[upstream].url, cpuSeconds: cpuOf(proxies[upstream].pid) });
    targets.push({
      name: MINIMAL_TARGET,
      url: nodeProxies[upstream].url,
      cpuSeconds: cpuOf(nodeProxies[upstream].pid),
    });
    const gatewayTarget: Target = {
      name: 'gateway',
      url: holder.gatewayUrl(NETWORKS[upstream]),
      cpuSeconds: srv.cpuSeconds,
    };
    targets.push(gatewayTarget);
    if (upstream === 'fixed') {
      targets.push({
        name: LOCKED_TARGET,
        url: lockedUrl(NETWORKS[upstream]),
        headers: { origin: LOCKED_ORIGIN },
        cpuSeconds: srv.cpuSeconds,
      });
    }
    // Every path must give the upstream's own answer before it is timed.
    const expected = await call(targets[0]?.url as string, load.body);
    for (const target of targets.slice(1)) {
      const got = await call(target.url, load.body, target.headers);
      if (got !== expected) throw new Error(`${target.name} answered ${got}, the upstream ${expected}`);
    }
    gatewayCalls += load.calls;
    const counted = (m: Measurement) => {
      all.push(m);
      if (m.target === 'gateway' || m.target === LOCKED_TARGET) gatewayCalls += m.answers * load.calls;
      return m;
    };
    for (const target of targets) counted(await measure(target, WARMUP, load));
    const rounds = new Map<string, Measurement[]>(targets.map((t) => [t.name, []]));
    // Every other round runs the targets in reverse order (A B C, C B A, ...): a machine that speeds
    // up or slows down over the rounds favours no target.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of round % 2 ? targets : [...targets].reverse()) {
        rounds.get(target.name)?.push(counted(await measure(target, DURATION, load)));
      }
    }
    const best = targets.map((t) => bestOf(rounds.get(t.name) ?? []));
    const direct = best[0] as Measurement;
    const lines = [`${scenario.label}:`, table(best)];
    for (const m of best.slice(1)) lines.push(comparisonLine(compare(m, direct)));
    const nginxBest = best.find((m) => m.target === 'nginx');
    const gatewayBest = best.find((m) => m.target === 'gateway') as Measurement;
    if (nginxBest)
      lines.push(
        `gateway / nginx: throughput ${(gatewayBest.requestsPerSecond / nginxBest.requestsPerSecond).toFixed(2)}×`,
      );
    for (const target of targets) {
      lines.push(
        `rounds of ${target.name}: ${(rounds.get(target.name) ?? []).map((m) => Math.round(m.requestsPerSecond)).join(', ')} req/s`,
      );
    }
    // Where the gateway is the bottleneck, its insight must cost next to nothing (every call counted
    // with the insight on or off is metered).
    let insight: InsightWindows | undefined;
    if (upstream === 'fixed' && load.connections >= 64) {
      // The gateways alone on their core(s), the fixed upstream beside the load generator: what the
      // two share is then only the machine, and the switch's effect all their throughput sees.
      const both = await twinSides();
      if (pinning) pin(upstreams.fixed.pid, pinning.bench);
      insight = {
        switched: await sideBySide(both, true, windowPlan, load),
        control: await sideBySide(both, false, windowPlan, load),
      };
      if (pinning) pin(upstreams.fixed.pid, pinning.servers);
      await Promise.all(both.map((side) => side.turn(true)));
      for (const [words, windows] of [
        ['insight on ÷ off', insight.switched],
        ['control, on ÷ on', insight.control],
      ] as const) {
        // The twin's calls are metered by the twin: only the first gateway's count here.
        const [first, second] = windows.runs;
        counted(first);
        all.push(second);
        const pairs = windows.throughput.map((r) => r.toFixed(3)).join(', ');
        const cpu = windows.cpuPerAnswerUs;
        const cpuWords = cpu ? `; server CPU per request ${cpu.on.toFixed(1)} / ${cpu.off.toFixed(1)} µs` : '';
        lines.push(`${words}, side by side, pairs of windows of ${SWITCH_WINDOW_MS} ms: ${pairs}${cpuWords}`);
        const perCpu = windows.perCpuSecond?.map((r) => r.toFixed(3)).join(', ');
        if (perCpu) lines.push(`${words}, the same per server CPU-second: ${perCpu}`);
      }
    }
    tables.push(lines.join('\n'));
    log(lines.join('\n'));
    figures.push(...figuresOf(scenario, best, rounds, insight));
  }

  // The gateway counts in memory and writes every few seconds: every call it answered must be metered.
  // It may meter a few more: requests still in flight when a run stopped are served and counted.
  const deadline = Date.now() + METERING_WAIT_MS;
  let metered = await meteredUsage(holder);
  while (metered < gatewayCalls && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    metered = await meteredUsage(holder);
  }

  const failed = all.reduce((sum, m) => sum + failures(m), 0);
  const trouble = all.flatMap((m) =>
    problems(m, `${m.target} (${m.connections} connections, ${m.calls} calls per request)`),
  );
  if (metered < gatewayCalls) trouble.push(`gateway: metered ${metered} calls of ${gatewayCalls} answered`);
  for (const line of [...srv.log.errors, ...(twin?.log.errors ?? [])]) {
    trouble.push(`server logged: ${line.slice(0, 300)}`);
  }
  const doubts = all.map(latencyDoubts).filter((doubt) => doubt !== undefined);

  const cpus = os.cpus();
  console.error(
    `\nEBS gateway benchmark, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ` +
      `${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), PGlite (embedded default), ` +
      `load average ${loadBefore.toFixed(2)} before the run, ` +
      (pinning ? `load generator on CPU ${pinning.bench}, servers on CPU ${pinning.servers}` : 'no CPU pinning'),
  );
  console.error(
    `eth_blockNumber; best of ${ROUNDS} interleaved rounds of ${DURATION} s per target after a ${WARMUP} s warm-up each\n`,
  );
  console.error(tables.join('\n\n'));
  console.error(`\nusage metered by the gateway: ${metered} calls for ${gatewayCalls} answered`);
  console.error(
    `server log: ${srv.log.clientAborts} "Request aborted" errors (requests in flight when a timed run stopped), ` +
      `${srv.log.errors.length} other errors`,
  );
  for (const doubt of doubts) console.error(`WARNING ${doubt}`);
  if (profileDir) console.error(`the server's CPU profile is written to ${profileDir} when it stops`);

  return finishSuite('gateway', figures, failed, trouble);
}

runSuite(main);
