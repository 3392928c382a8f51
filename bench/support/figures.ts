// The one shape every benchmark reports its figures in. A suite prints its own tables for people and,
// for the runner (`bench/run.ts`), one `BENCH_FIGURE {json}` line per figure with its target.

export interface Figure {
  /** The suite that measured it: gateway, console-api, jobs, web, memory. */
  suite: string;
  /** What was measured, in words: "gateway / nginx req/s, fixed upstream, 64 connections". */
  name: string;
  value: number;
  /** Unit of value and limit: "ms", "×", "KB gzip", "MB", "s", "score". */
  unit: string;
  /** The target: the value must be at most (`max`) or at least (`min`) the limit. Absent: shown, not judged. */
  target?: { max: number } | { min: number };
}

export const FIGURE_PREFIX = 'BENCH_FIGURE ';

export function passes(figure: Figure): boolean | undefined {
  if (!figure.target) return undefined;
  return 'max' in figure.target ? figure.value <= figure.target.max : figure.value >= figure.target.min;
}

export function targetText(figure: Figure): string {
  if (!figure.target) return '';
  return 'max' in figure.target ? `≤ ${figure.target.max}` : `≥ ${figure.target.min}`;
}

/** Prints the figure for the runner (stdout, one line). Suites print their human tables to stderr. */
export function report(figure: Figure): void {
  process.stdout.write(`${FIGURE_PREFIX}${JSON.stringify(figure)}\n`);
}
