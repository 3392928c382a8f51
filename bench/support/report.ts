import { type Figure, report } from './figures.ts';
import { failures, type Measurement } from './load.ts';

export interface Comparison {
  target: string;
  /** target req/s ÷ direct req/s: 1 means the path costs no throughput. */
  throughputRatio: number;
  /** Milliseconds the path adds, and the ratio of the latencies. */
  p50AddedMs: number;
  p99AddedMs: number;
  p50Ratio: number;
  p99Ratio: number;
}

export function compare(best: Measurement, direct: Measurement): Comparison {
  return {
    target: best.target,
    throughputRatio: best.requestsPerSecond / direct.requestsPerSecond,
    p50AddedMs: best.p50 - direct.p50,
    p99AddedMs: best.p99 - direct.p99,
    p50Ratio: best.p50 / direct.p50,
    p99Ratio: best.p99 / direct.p99,
  };
}

/** The round with the most answers per second: the one least disturbed by anything else on the machine. */
export function bestOf(rounds: Measurement[]): Measurement {
  return rounds.reduce((best, m) => (m.requestsPerSecond > best.requestsPerSecond ? m : best));
}

const ms = (value: number) => value.toFixed(2);
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;

function row(cells: Array<string | number>, widths: number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i] ?? 0) : String(cell).padStart(widths[i] ?? 0)))
    .join('  ');
}

const percent = (share: number | undefined) => (share === undefined ? 'n/a' : `${Math.round(share * 100)}%`);

/** CPU time the target's server spent per answered request, in µs. */
const perRequest = (m: Measurement) =>
  m.serverCpu === undefined || m.requestsPerSecond === 0
    ? 'n/a'
    : String(Math.round((m.serverCpu * 1e6) / m.requestsPerSecond));

export function table(best: Measurement[]): string {
  const widths = [18, 7, 7, 7, 7, 8, 6, 10, 10, 9];
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'answers',
    'failed',
    'server CPU',
    'CPU µs/req',
    'bench CPU',
  ];
  const lines = [row(header, widths)];
  for (const m of best) {
    const cells = [m.target, Math.round(m.requestsPerSecond), ms(m.p50), ms(m.p90), ms(m.p99), m.answers, failures(m)];
    lines.push(row([...cells, percent(m.serverCpu), perRequest(m), percent(m.clientCpu)], widths));
  }
  return lines.join('\n');
}

export function comparisonLine(c: Comparison): string {
  return (
    `${c.target} / direct: throughput ${c.throughputRatio.toFixed(2)}×, ` +
    `p50 ${signed(c.p50AddedMs)} ms (${c.p50Ratio.toFixed(2)}×), p99 ${signed(c.p99AddedMs)} ms (${c.p99Ratio.toFixed(2)}×)`
  );
}

/** Everything that went wrong in a measurement, in words; empty when every answer was a JSON-RPC result. */
export function problems(m: Measurement, label: string): string[] {
  const found: string[] = [];
  if (m.errors > 0) found.push(`${label}: ${m.errors} connection errors (${m.timeouts} of them timeouts)`);
  if (m.non2xx > 0) found.push(`${label}: ${m.non2xx} non-2xx answers ${JSON.stringify(m.statusCodes)}`);
  if (m.withoutResult > 0) found.push(`${label}: ${m.withoutResult} 2xx answers without a JSON-RPC result`);
  if (m.answers === 0) found.push(`${label}: no answer at all`);
  return found;
}

/**
 * With one request at a time per connection, the mean latency cannot exceed connections ÷ req/s
 * (Little's law). When it does, the latencies are wrong: autocannon mis-times the requests of
 * connections the server closes (nginx's default of 1000 requests per connection did that).
 */
export function latencyDoubts(m: Measurement): string | undefined {
  const bound = (m.connections / m.requestsPerSecond) * 1000;
  if (m.mean <= bound * 1.1) return undefined;
  return `${m.target}: mean latency ${m.mean.toFixed(2)} ms exceeds connections ÷ req/s = ${bound.toFixed(2)} ms; its latencies are not to be trusted (does it close connections?)`;
}

/**
 * The end of a load suite: its figures with the failed requests of all rounds (target 0) reported,
 * and the exit code: 1 with every reason when the figures are not to be trusted.
 */
export function finishSuite(suite: string, figures: Figure[], failed: number, trouble: string[]): number {
  figures.push({
    suite,
    name: 'failed requests under load, all rounds',
    value: failed,
    unit: 'requests',
    target: { max: 0 },
  });
  for (const figure of figures) report(figure);
  if (trouble.length === 0) return 0;
  console.error(`\n!!! BENCHMARK FAILED: the figures above are not to be trusted !!!\n  ${trouble.join('\n  ')}`);
  return 1;
}
