import { percentile } from '../support/load.ts';

/** What one stream of requests (the gateway's, the console's) did in one sample window. */
export interface Window {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
}

/** Errors kept in full for the report; past this many only the count grows. */
const KEPT_ERRORS = 20;

/**
 * Counts the requests of one stream, their errors (anything but the answer expected) and their
 * times: per sample window (`cut`) and for the whole run.
 */
export class Tally {
  requests = 0;
  errors = 0;
  readonly firstErrors: string[] = [];
  private window: number[] = [];
  private windowErrors = 0;
  private all: number[] = [];

  constructor(readonly name: string) {}

  ok(ms: number): void {
    this.requests++;
    this.window.push(ms);
  }

  /** A request that answered something else than expected, or did not answer. */
  fail(what: string, ms?: number): void {
    this.requests++;
    this.errors++;
    this.windowErrors++;
    if (ms !== undefined) this.window.push(ms);
    if (this.firstErrors.length < KEPT_ERRORS) this.firstErrors.push(`${new Date().toISOString()} ${what}`);
  }

  /** The window since the last cut; its times join the run's. */
  cut(): Window {
    const sorted = Float64Array.from(this.window).sort();
    const window = {
      requests: this.window.length,
      errors: this.windowErrors,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
    };
    for (const ms of this.window) this.all.push(ms);
    this.window = [];
    this.windowErrors = 0;
    return window;
  }

  /** p50 and p99 of every timed request of the run so far (cut first). */
  overall(): { p50: number; p99: number } {
    const sorted = Float64Array.from(this.all).sort();
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  }
}

/** Times `work` in milliseconds. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}
