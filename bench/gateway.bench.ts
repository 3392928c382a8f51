// `npm run bench` gateway suite: the RPC gateway against the same upstream reached directly, through
// nginx and through a minimal Node.js proxy, for a fixed-answer upstream and a real Anvil node, single
// calls and batches, one and many connections, on distinct calls (the headline) and on identical ones
// (merging's best case), all measured in one run and printed as ratios. docs/performance.md explains
// the figures.
import os from 'node:os';
import { type CreatedApiKey, KNOWN_RPC_METHODS, rpcUrl } from '@ebs/contract';
import { cpuPinning, pin } from './support/cpu-pinning.ts';
import type { Figure } from './support/figures.ts';
import {
  type CallKind,
  figuresOf,
  type InsightWindows,
  LOCKED_TARGET,
  MINIMAL_TARGET,
  NETWORKS,
  PARSING_TARGET,
  scenarios,
} from './support/gateway-scenarios.ts';
import { type KeyLists, keyCheckCost } from './support/key-check-cost.ts';
import { distinctBalanceCalls, failures, type Measurement, measure, type Target } from './support/load.ts';
import { ensureNginx, nginxProxy } from './support/nginx.ts';
import { pricingCost } from './support/pricing-cost.ts';
import { bestOf, compare, comparisonLine, finishSuite, latencyDoubts, problems, table } from './support/report.ts';
import { wholeSetting } from './support/settings.ts';
import { type Side, sideBySide, type WindowPlan } from './support/side-by-side.ts';
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

const log = (line: string) => process.stderr.write(`${line}\n`);

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

/** The methods the scenarios call: the distinct calls', and the identical ones'. */
const BENCH_METHODS = ['eth_getBalance', 'eth_blockNumber'];

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
  allowedMethods: [...KNOWN_RPC_METHODS.filter((m) => !BENCH_METHODS.includes(m)).slice(0, 48), ...BENCH_METHODS],
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

async function main(cleanup: Cleanup): Promise<number> {
  const started = Date.now();
  // Anything else running on the machine takes CPU from the processes measured: shown with the figures.
  const loadBefore = os.loadavg()[0] ?? 0;
  const pinning = cpuPinning();
  if (pinning) pin(process.pid, pinning.bench);
  const dir = await tempDir(cleanup);
  const upstreams = { fixed: await fixedUpstream(cleanup, NETWORKS.fixed), anvil: await anvil(cleanup) };
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
  const parsingProxy = await minimalProxy(cleanup, upstreams.fixed.url, holder, true);
  if (pinning) {
    for (const pid of [
      srv.pid,
      upstreams.fixed.pid,
      upstreams.anvil.pid,
      proxies?.fixed.pid,
      proxies?.anvil.pid,
      nodeProxies.fixed.pid,
      nodeProxies.anvil.pid,
      parsingProxy.pid,
    ]) {
      pin(pid, pinning.servers);
    }
  }
  log(
    `ready in ${((Date.now() - started) / 1000).toFixed(1)} s${nginx ? '' : ' (nginx could not be found or installed: no nginx rows)'}`,
  );
  const all: Measurement[] = [];
  const figures: Figure[] = [];
  const tables: Record<CallKind, string[]> = { distinct: [], identical: [] };
  let gatewayCalls = 0;
  // The rules' own cost, in-process and alone (before the load: it holds this process's event loop).
  for (const [words, calls] of [
    ['single call', 1],
    [`batch of ${BATCH}`, BATCH],
  ] as const) {
    const body = distinctBalanceCalls(calls)().toString();
    const cost = keyCheckCost(LOCKED_LISTS, LOCKED_ORIGIN, body);
    log(
      `key check and screen, ${words}: ${cost.plainUs.toFixed(2)} µs for a plain key, ${cost.lockedUs.toFixed(2)} µs for the locked-down key`,
    );
    figures.push({
      suite: 'gateway',
      name: `key rules' added cost per request, in-process, ${words}`,
      value: Number((cost.lockedUs - cost.plainUs).toFixed(2)),
      unit: 'µs',
    });
    const pricing = pricingCost(body);
    log(
      `parse and screen, ${words}: ${pricing.unpricedUs.toFixed(2)} µs unpriced, ${pricing.pricedUs.toFixed(2)} µs priced (compute units, cost, cap)`,
    );
    figures.push({
      suite: 'gateway',
      name: `pricing's added cost per request, in-process, ${words}`,
      value: Number((pricing.pricedUs - pricing.unpricedUs).toFixed(2)),
      unit: 'µs',
    });
  }

  for (const scenario of scenarios(CONNECTIONS, BATCH, process.env.BENCH_ONLY)) {
    const { kind, upstream, load } = scenario;
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
    // The floor of reading the calls, where the gateway is judged (distinct calls, fixed upstream).
    if (kind === 'distinct' && upstream === 'fixed') {
      targets.push({ name: PARSING_TARGET, url: parsingProxy.url, cpuSeconds: cpuOf(parsingProxy.pid) });
    }
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
    const gatewayBest = best.find((m) => m.target === 'gateway') as Measurement;
    for (const reference of ['nginx', MINIMAL_TARGET, PARSING_TARGET]) {
      const m = best.find((b) => b.target === reference);
      if (m)
        lines.push(
          `gateway / ${reference}: throughput ${(gatewayBest.requestsPerSecond / m.requestsPerSecond).toFixed(2)}×`,
        );
    }
    for (const target of targets) {
      lines.push(
        `rounds of ${target.name}: ${(rounds.get(target.name) ?? []).map((m) => Math.round(m.requestsPerSecond)).join(', ')} req/s`,
      );
    }
    // Where the gateway is the bottleneck, on the traffic customers send, its insight must cost next
    // to nothing (every call counted with the insight on or off is metered).
    let insight: InsightWindows | undefined;
    if (kind === 'distinct' && upstream === 'fixed' && load.connections >= 64) {
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
    tables[kind].push(lines.join('\n'));
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
  console.error(`best of ${ROUNDS} interleaved rounds of ${DURATION} s per target after a ${WARMUP} s warm-up each\n`);
  const sections: Array<[CallKind, string]> = [
    [
      'distinct',
      'DISTINCT CALLS (the headline): each call an eth_getBalance of an address not asked before, at "latest"',
    ],
    [
      'identical',
      "MERGING'S BEST CASE (identical calls, not judged): the same eth_blockNumber on every connection, which the gateway can merge while one is in flight",
    ],
  ];
  for (const [kind, heading] of sections) {
    if (tables[kind].length > 0) console.error(`${heading}\n\n${tables[kind].join('\n\n')}\n`);
  }
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
