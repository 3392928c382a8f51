// The notify suite's tables and figures: one row per run shape (latency of the deliveries after their
// block's appearance, the server's CPU per block and memory), the ratios between the shapes, and the
// figures with their targets for `npm run bench`.
import type { Figure } from './figures.ts';
import { percentile } from './load.ts';
import type { DeliveryCheck } from './notify-deliveries.ts';

export const SUITE = 'notify';
/** The acceptance: every block's activity delivered within a second of the block's appearance (p99). */
export const TARGET_P99_MS = 1000;

/** What one run shape (webhooks × addresses) measured. */
export interface ShapeRun {
  label: string;
  webhooks: number;
  addresses: number;
  /** Measured blocks, and the window they appeared in (from the first's appearance to the one after the last's). */
  blocks: number;
  windowSeconds: number;
  check: DeliveryCheck;
  /** Server process CPU over the window, ms; undefined without /proc. */
  cpuMs: number | undefined;
  /** Server process CPU per second with the head unchanged (the engine polling, the gateway's head reads), ms. */
  idleMsPerSecond: number | undefined;
  /** CPU of the PostgreSQL backends serving the server's connections over the window, ms (PostgreSQL only). */
  databaseCpuMs: number | undefined;
  rssMaxMb: number | undefined;
  /** Cores the machine's other processes kept busy over the window: above ~0.2 the latencies are theirs too. */
  otherCores: number | undefined;
  /** Calls the node answered over the window, by method (the gateway's own head reads included). */
  nodeCalls: Record<string, number>;
  /** Deliveries received in all (warm-up blocks included), and the connections the server opened for them. */
  received: { deliveries: number; connections: number };
  loading: { seconds: number; calls: number; medianMs: number; slowestMs: number };
}

/** Other processes' use of the machine above which a run's latencies say more of the machine than of the server. */
const BUSY_CORES = 0.2;

const sorted = (values: number[]) => Float64Array.from(values).sort();
export const latencyOf = (run: ShapeRun, p: number) => percentile(sorted(run.check.latencies), p);
const maxOf = (run: ShapeRun) => Math.max(...run.check.latencies);
const perBlock = (ms: number | undefined, run: ShapeRun) => (ms === undefined ? undefined : ms / run.blocks);
export const cpuPerBlock = (run: ShapeRun) => perBlock(run.cpuMs, run);
/** CPU per block above what the same window costs idle. */
const aboveIdle = (run: ShapeRun) =>
  run.cpuMs === undefined || run.idleMsPerSecond === undefined
    ? undefined
    : (run.cpuMs - run.idleMsPerSecond * run.windowSeconds) / run.blocks;

const fixed = (value: number | undefined, digits = 1) => (value === undefined ? 'n/a' : value.toFixed(digits));
const count = (n: number) => n.toLocaleString('en-US').replaceAll(',', ' ');

function row(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
}

export function shapeTable(runs: ShapeRun[], withDatabase: boolean): string {
  const header = [
    'run shape',
    'blocks',
    'deliveries',
    'p50 ms',
    'p99 ms',
    'max ms',
    'CPU ms/block',
    'above idle',
    'RSS MB',
  ];
  if (withDatabase) header.push('PG ms/block');
  const widths = [Math.max(...runs.map((r) => r.label.length), 10), 6, 10, 7, 7, 7, 12, 10, 7, 11];
  const lines = [row(header, widths)];
  for (const run of runs) {
    const cells = [
      run.label,
      String(run.blocks),
      String(run.check.latencies.length),
      fixed(latencyOf(run, 0.5)),
      fixed(latencyOf(run, 0.99)),
      fixed(maxOf(run)),
      fixed(cpuPerBlock(run)),
      fixed(aboveIdle(run)),
      fixed(run.rssMaxMb, 0),
    ];
    if (withDatabase) cells.push(fixed(perBlock(run.databaseCpuMs, run)));
    lines.push(row(cells, widths));
  }
  return lines.join('\n');
}

/** What each run did besides: loading its addresses, its idle cost, the node's calls per block. */
export function shapeNotes(run: ShapeRun): string[] {
  const calls = Object.entries(run.nodeCalls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([method, n]) => `${method} ${(n / run.blocks).toFixed(1)}`)
    .join(', ');
  const activities = [...new Set(run.check.activitiesPerBlock)].join(' or ');
  const slowest = run.check.blockLatencies
    .map((ms, i) => ({ ms, block: i + 1 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map((b) => `#${b.block} ${b.ms.toFixed(0)} ms`)
    .join(', ');
  return [
    `${run.label}:`,
    `  ${count(run.addresses)} addresses added through the API in ${run.loading.seconds.toFixed(1)} s ` +
      `(${run.loading.calls} calls of 1 000, median ${run.loading.medianMs.toFixed(0)} ms, slowest ${run.loading.slowestMs.toFixed(0)} ms)`,
    `  idle, head unchanged: ${fixed(run.idleMsPerSecond)} ms CPU a second; measured window ${run.windowSeconds.toFixed(1)} s, ` +
      `other processes of the machine meanwhile ${fixed(run.otherCores, 2)} cores${(run.otherCores ?? 0) > BUSY_CORES ? " (WARNING: a busy machine, the latencies are not the server's alone)" : ''}`,
    `  activities per measured block: ${activities || 'none'}; block complete (last delivery) p99 ` +
      `${fixed(percentile(sorted(run.check.blockLatencies), 0.99))} ms; slowest measured blocks ${slowest}`,
    `  node calls per measured block: ${calls}`,
    `  ${run.received.deliveries} deliveries received over ${run.received.connections} connections`,
  ];
}

export function shapeFigures(runs: ShapeRun[], problems: number): Figure[] {
  const figures: Figure[] = [];
  const round = (value: number, digits = 1) => Number(value.toFixed(digits));
  for (const run of runs) {
    const of = `${run.label}, ${run.blocks} blocks of 1 000 transfers`;
    figures.push(
      {
        suite: SUITE,
        name: `delivery after the block's appearance, p99, ${of}`,
        value: round(latencyOf(run, 0.99)),
        unit: 'ms',
        target: { max: TARGET_P99_MS },
      },
      {
        suite: SUITE,
        name: `delivery after the block's appearance, p50, ${of}`,
        value: round(latencyOf(run, 0.5)),
        unit: 'ms',
      },
      { suite: SUITE, name: `delivery after the block's appearance, max, ${of}`, value: round(maxOf(run)), unit: 'ms' },
    );
    const cpu = cpuPerBlock(run);
    if (cpu !== undefined)
      figures.push({ suite: SUITE, name: `server CPU per block, ${run.label}`, value: round(cpu), unit: 'ms' });
    if (run.rssMaxMb !== undefined) {
      figures.push({
        suite: SUITE,
        name: `server resident memory, ${run.label}`,
        value: Math.round(run.rssMaxMb),
        unit: 'MB',
      });
    }
  }
  const [one, many] = runs;
  const oneCpu = one && cpuPerBlock(one);
  const manyCpu = many && cpuPerBlock(many);
  if (one && many && oneCpu && manyCpu) {
    figures.push({
      suite: SUITE,
      name: `server CPU per block, ${many.label} ÷ ${one.label}`,
      value: round(manyCpu / oneCpu, 2),
      unit: '×',
    });
  }
  figures.push({
    suite: SUITE,
    name: 'deliveries missing, repeated or told wrong, every block of every run',
    value: problems,
    unit: 'deliveries',
    target: { max: 0 },
  });
  return figures;
}
