// What the fleet suite (bench/fleet.bench.ts) prints and reports: its table, each node's share of
// the calls, the router's own counts, the answers by what they carry, and the figures with targets.
import type { Figure } from './figures.ts';
import {
  type AnswerTally,
  type Fleet,
  figuresOf,
  LAG_BLOCKS,
  type NetworkFigures,
  NODE_NAMES,
  type NodeName,
  SLOWER_MS,
  shares,
} from './fleet-nodes.ts';
import type { Latency } from './latency.ts';
import type { Measurement } from './load.ts';
import { median } from './median.ts';
import { bestOf, compare, comparisonLine, table } from './report.ts';

const SUITE = 'fleet';

/** The three paths measured: straight to the fast node, the gateway over the fleet, the gateway over one node. */
export const PATHS = ['direct', 'fleet', 'oneNode'] as const;
export type Path = (typeof PATHS)[number];
export const PATH_NAMES: Record<Path, string> = {
  direct: 'direct, fast node',
  fleet: 'gateway, fleet',
  oneNode: 'gateway, one node',
};

export interface FleetRun {
  connections: number;
  /** Each path's timed rounds at `connections`. */
  rounds: Record<Path, Measurement[]>;
  /** The fleet and the one node measured at the same time, half the connections each, round by round. */
  together: Array<[Measurement, Measurement]>;
  /** Each path's one-call-at-a-time rounds. */
  latencies: Record<Path, Latency[]>;
  /** Calls each node was sent during the fleet's timed rounds, and during its one-at-a-time rounds. */
  loadedCalls: Record<NodeName, number>;
  togetherCalls: Record<NodeName, number>;
  quietCalls: Record<NodeName, number>;
  tallies: Record<Path, AnswerTally>;
  fleet: Fleet;
  routerBefore: NetworkFigures | undefined;
  routerAfter: NetworkFigures | undefined;
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const round = (value: number, digits: number) => Number(value.toFixed(digits));
/** A round's p99 moves by a third between rounds on a busy machine: ratios of p99 take each path's median round. */
const medianP99 = (rounds: Measurement[]) => median(rounds.map((m) => m.p99));
/** The one-at-a-time round least disturbed by anything else on the machine: the lowest p50. */
const quietest = (rounds: Latency[]) => rounds.reduce((a, b) => (b.p50 < a.p50 ? b : a));
/** Fleet ÷ one node of a figure, each side-by-side round's, then their median. */
const sideBySide = (run: FleetRun, of: (m: Measurement) => number) =>
  median(run.together.map(([fleet, oneNode]) => of(fleet) / of(oneNode)));

export function fleetTables(run: FleetRun): string {
  const best = PATHS.map((path) => bestOf(run.rounds[path]));
  const [direct, fleet, oneNode] = best as [Measurement, Measurement, Measurement];
  const lines = [table(best), ...best.slice(1).map((m) => comparisonLine(compare(m, direct)))];
  lines.push(
    `gateway, fleet / gateway, one node: throughput ${(fleet.requestsPerSecond / oneNode.requestsPerSecond).toFixed(2)}×, ` +
      `p99 of the median rounds ${(medianP99(run.rounds.fleet) / medianP99(run.rounds.oneNode)).toFixed(2)}×`,
  );
  for (const path of PATHS) {
    const each = run.rounds[path].map((m) => `${Math.round(m.requestsPerSecond)} req/s p99 ${m.p99.toFixed(1)} ms`);
    lines.push(`rounds of ${PATH_NAMES[path]}: ${each.join(', ')}`);
  }
  lines.push(`\nside by side: the fleet and the one node at the same time, ${run.connections / 2} connections each`);
  for (const [fleetSide, oneSide] of run.together) {
    lines.push(
      `  fleet ${Math.round(fleetSide.requestsPerSecond)} req/s p50 ${fleetSide.p50.toFixed(2)} p99 ${fleetSide.p99.toFixed(1)} ms, ` +
        `one node ${Math.round(oneSide.requestsPerSecond)} req/s p50 ${oneSide.p50.toFixed(2)} p99 ${oneSide.p99.toFixed(1)} ms: ` +
        `p99 ${(fleetSide.p99 / oneSide.p99).toFixed(2)}×, req/s ${(fleetSide.requestsPerSecond / oneSide.requestsPerSecond).toFixed(2)}×`,
    );
  }
  const nodeLine = (counts: Record<NodeName, number>) => {
    const of = shares(counts);
    return NODE_NAMES.map((name) => `${name} ${counts[name]} (${percent(of[name])})`).join(', ');
  };
  lines.push(
    '',
    `calls each node was sent (its own count), the fleet's timed rounds: ${nodeLine(run.loadedCalls)}`,
    `the same, side by side: ${nodeLine(run.togetherCalls)}`,
    `the same, one call at a time: ${nodeLine(run.quietCalls)}`,
  );
  const since = (name: NodeName, field: 'selected' | 'hedges' | 'retries') =>
    (figuresOf(run.routerAfter, run.fleet[name])?.[field] ?? 0) -
    (figuresOf(run.routerBefore, run.fleet[name])?.[field] ?? 0);
  lines.push(
    `the router's view after the loaded rounds (its counts include the warm-ups and the side-by-side rounds):`,
  );
  for (const name of NODE_NAMES) {
    const after = figuresOf(run.routerAfter, run.fleet[name]);
    lines.push(
      `  ${name.padEnd(8)} ${after?.state.padEnd(8)} p50 ${after?.p50Ms} ms, p95 ${after?.p95Ms} ms over the last minute; ` +
        `selected ${since(name, 'selected')}, hedged elsewhere ${since(name, 'hedges')}, retried elsewhere ${since(name, 'retries')}`,
    );
  }
  const { fresh, stale } = run.tallies.fleet;
  lines.push(`answers through the fleet: ${fresh} at the head, ${stale} stale (the lagging node's head)`);
  lines.push('', 'one call at a time (1 connection), the round with the lowest p50:');
  for (const path of PATHS) {
    const l = quietest(run.latencies[path]);
    lines.push(
      `${PATH_NAMES[path].padEnd(18)} p50 ${l.p50.toFixed(3)} ms  p99 ${l.p99.toFixed(3)} ms  max ${l.max.toFixed(1)} ms  (${l.samples} calls)`,
    );
  }
  return lines.join('\n');
}

export function fleetFigures(run: FleetRun): Figure[] {
  const on = `, distinct calls, ${run.connections} connections`;
  const halves = `, distinct calls, ${run.connections / 2} + ${run.connections / 2} connections`;
  const direct = bestOf(run.rounds.direct);
  const fleet = bestOf(run.rounds.fleet);
  const loaded = shares(run.loadedCalls);
  const quiet = shares(run.quietCalls);
  const p99 = (path: Path) => medianP99(run.rounds[path]);
  const stale = PATHS.reduce((sum, path) => sum + run.tallies[path].stale, 0);
  return [
    {
      suite: SUITE,
      name: `stale answers (the lagging node's head, ${LAG_BLOCKS} blocks behind), every call`,
      value: stale,
      unit: 'answers',
      target: { max: 0 },
    },
    {
      suite: SUITE,
      name: `lagging node's share of the calls${on}`,
      value: round(loaded.lagging * 100, 2),
      unit: '%',
      target: { max: 0 },
    },
    {
      suite: SUITE,
      name: `slow node's (+${SLOWER_MS} ms) share of the calls${on}`,
      value: round(loaded.slow * 100, 2),
      unit: '%',
    },
    {
      suite: SUITE,
      name: `slow node's (+${SLOWER_MS} ms) share of the calls, 1 connection`,
      value: round(quiet.slow * 100, 2),
      unit: '%',
    },
    {
      suite: SUITE,
      name: `gateway ÷ direct req/s, fleet${on}`,
      value: round(fleet.requestsPerSecond / direct.requestsPerSecond, 2),
      unit: '×',
    },
    {
      suite: SUITE,
      name: `gateway ÷ direct p99 (median rounds), fleet${on}`,
      value: round(p99('fleet') / p99('direct'), 2),
      unit: '×',
    },
    {
      suite: SUITE,
      name: `fleet ÷ one node p99, side by side through the gateway${halves}`,
      value: round(
        sideBySide(run, (m) => m.p99),
        2,
      ),
      unit: '×',
    },
    {
      suite: SUITE,
      name: `fleet ÷ one node req/s, side by side through the gateway${halves}`,
      value: round(
        sideBySide(run, (m) => m.requestsPerSecond),
        2,
      ),
      unit: '×',
    },
    {
      suite: SUITE,
      name: 'gateway added p50 over direct, fleet, 1 connection',
      value: round(quietest(run.latencies.fleet).p50 - quietest(run.latencies.direct).p50, 3),
      unit: 'ms',
    },
  ];
}
