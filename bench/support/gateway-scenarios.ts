// What the gateway suite measures (bench/gateway.bench.ts) and how it is judged: the scenarios, and
// the figures of each with their targets.
import type { Figure } from './figures.ts';
import { distinctBalanceCalls, type Load, type Measurement, RPC_BODY, rpcBatch } from './load.ts';
import { median } from './median.ts';
import type { SideBySide } from './side-by-side.ts';

/** The networks the gateway forwards to each upstream. */
export const NETWORKS = { fixed: 'polygon/mainnet', anvil: 'ethereum/mainnet' } as const;
export type UpstreamName = keyof typeof NETWORKS;

/** The measurement of the locked-down key through the gateway. */
export const LOCKED_TARGET = 'gateway, locked key';
/** The least a proxy in Node.js does per request (support/minimal-proxy.ts): the runtime's ceiling. */
export const MINIMAL_TARGET = 'minimal Node proxy';
/**
 * The same proxy reading each body with JSON.parse first: the least any gateway that screens or
 * meters its calls adds, so its ratio to the minimal proxy is the floor such a gateway starts from.
 */
export const PARSING_TARGET = 'parsing Node proxy';

/**
 * `distinct`: every call an eth_getBalance of an address not asked before, the traffic customers
 * send, on which the gateway is judged. `identical`: the same eth_blockNumber on every connection,
 * which the gateway can merge into one upstream call while one is in flight: merging's best case, shown
 * apart and judged by nothing.
 */
export type CallKind = 'distinct' | 'identical';

export interface Scenario {
  kind: CallKind;
  upstream: UpstreamName;
  load: Load;
  label: string;
}

/** Two gateways with their insight on and off in turn, and the control (both on). */
export interface InsightWindows {
  switched: SideBySide;
  control: SideBySide;
}

const KIND_WORDS: Record<CallKind, string> = {
  distinct: 'distinct calls',
  identical: "merging's best case (identical calls)",
};

/**
 * Every kind × upstream × body × connections, the distinct calls first; `only` keeps those whose
 * label contains it (e.g. "fixed upstream, single calls").
 */
export function scenarios(connections: number[], batch: number, only: string | undefined): Scenario[] {
  const sizes = [
    { calls: 1, words: 'single calls' },
    { calls: batch, words: `batches of ${batch}` },
  ];
  const loadOf = (kind: CallKind, calls: number, n: number): Load => {
    if (kind === 'identical') return { body: calls === 1 ? RPC_BODY : rpcBatch(calls), calls, connections: n };
    const next = distinctBalanceCalls(calls);
    // The body every path is checked with before it is timed, a scenario's own.
    return { body: next().toString(), calls, connections: n, next };
  };
  return (['distinct', 'identical'] as const)
    .flatMap((kind) =>
      (['fixed', 'anvil'] as const).flatMap((upstream) =>
        sizes.flatMap(({ calls, words }) =>
          connections.map((n) => ({
            kind,
            upstream,
            load: loadOf(kind, calls, n),
            label: `${KIND_WORDS[kind]}, ${upstream === 'fixed' ? 'fixed upstream' : 'Anvil'}, ${words}, ${n} connection${n === 1 ? '' : 's'}`,
          })),
        ),
      ),
    )
    .filter((scenario) => !only || scenario.label.includes(only));
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * The figures of a scenario, with the targets on the distinct calls; the rest is printed
 * without one. The targets are set against the minimal Node proxy, the most a Node.js process can
 * do: nginx's ratio is shown, but not judged, since it also measures Node.js against C, which the
 * gateway cannot change.
 */
export function figuresOf(
  scenario: Scenario,
  best: Measurement[],
  rounds: Map<string, Measurement[]>,
  insight: InsightWindows | undefined,
): Figure[] {
  const { kind, upstream, load, label } = scenario;
  const judged = kind === 'distinct';
  const fixed = judged && upstream === 'fixed';
  const target = (applies: boolean, limit: NonNullable<Figure['target']>) => (applies ? { target: limit } : {});
  const [direct, ...others] = best as [Measurement, ...Measurement[]];
  const gateway = others.find((m) => m.target === 'gateway') as Measurement;
  const locked = others.find((m) => m.target === LOCKED_TARGET);
  const nginx = others.find((m) => m.target === 'nginx');
  const minimal = others.find((m) => m.target === MINIMAL_TARGET);
  const parsing = others.find((m) => m.target === PARSING_TARGET);
  const figures: Figure[] = [
    { suite: 'gateway', name: `gateway req/s, ${label}`, value: Math.round(gateway.requestsPerSecond), unit: 'req/s' },
  ];
  if (nginx) {
    figures.push({
      suite: 'gateway',
      name: `gateway ÷ nginx req/s, ${label}`,
      value: round(gateway.requestsPerSecond / nginx.requestsPerSecond, 2),
      unit: '×',
    });
  }
  if (minimal) {
    figures.push(
      {
        suite: 'gateway',
        name: `gateway ÷ minimal Node proxy req/s, ${label}`,
        value: round(gateway.requestsPerSecond / minimal.requestsPerSecond, 2),
        unit: '×',
        ...target(fixed && load.connections >= 64, { min: load.calls === 1 ? 0.85 : 0.9 }),
      },
      {
        suite: 'gateway',
        name: `gateway added p50 over minimal Node proxy, ${label}`,
        value: round(gateway.p50 - minimal.p50, 3),
        unit: 'ms',
        ...target(fixed && load.connections === 1, { max: 0.05 }),
      },
    );
  }
  if (minimal && parsing) {
    // Not judged: what reading the calls alone costs, and how far the gateway is from that floor.
    figures.push(
      {
        suite: 'gateway',
        name: `parsing Node proxy ÷ minimal Node proxy req/s (the floor of reading the calls), ${label}`,
        value: round(parsing.requestsPerSecond / minimal.requestsPerSecond, 2),
        unit: '×',
      },
      {
        suite: 'gateway',
        name: `gateway ÷ parsing Node proxy req/s, ${label}`,
        value: round(gateway.requestsPerSecond / parsing.requestsPerSecond, 2),
        unit: '×',
      },
    );
  }
  // Rounds of targets that should be about equal interleave; their medians, not their best, are
  // compared: on a shared machine one lucky round of either would decide a ratio that should be about 1.
  const medianOf = (name: string) => median((rounds.get(name) ?? []).map((m) => m.requestsPerSecond));
  if (insight) {
    const { switched, control } = insight;
    const cpu = switched.cpuPerAnswerUs;
    figures.push(
      {
        suite: 'gateway',
        name: `insight's added server CPU per request, ${label}`,
        value: cpu ? round(cpu.on - cpu.off, 1) : Number.NaN,
        unit: 'µs',
      },
      {
        suite: 'gateway',
        name: `insight on ÷ off req/s (side by side, median of ${switched.throughput.length} pairs of windows), ${label}`,
        value: round(median(switched.throughput), 3),
        unit: '×',
        target: { min: 0.97 },
      },
      {
        // The same with both on: what the measurement reads when nothing differs.
        suite: 'gateway',
        name: `control: insight on ÷ on req/s (side by side, median of ${control.throughput.length} pairs), ${label}`,
        value: round(median(control.throughput), 3),
        unit: '×',
      },
    );
  }
  if (locked) {
    figures.push({
      suite: 'gateway',
      name: `locked-down key ÷ plain key req/s (median round), ${label}`,
      value: round(medianOf(LOCKED_TARGET) / medianOf('gateway'), 2),
      unit: '×',
      ...target(judged && load.connections >= 64, { min: 0.97 }),
    });
  }
  figures.push({
    suite: 'gateway',
    name: `gateway added p50 over direct, ${label}`,
    value: round(gateway.p50 - direct.p50, 3),
    unit: 'ms',
    ...target(judged && load.connections === 1, { max: 0.3 }),
  });
  return figures;
}
