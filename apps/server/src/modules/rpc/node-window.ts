import { bucketOf, LATENCY_BUCKETS, percentile, upperBoundOf } from '../insight/index.ts';

const SLOTS = 60;

/** A second's figures of one node: calls, failed calls, and their latencies in the insight's buckets. */
interface Slot {
  second: number;
  calls: number;
  errors: number;
  latency: Uint32Array;
}

/**
 * One node's calls over the last minute, by second (calls, errors, a latency histogram), and its
 * latency histogram since start (the operator's metrics): bounded whatever the traffic, and read
 * by the admin command, the metrics and the hedge's delay (its p95).
 */
export class NodeWindow {
  private readonly slots: Slot[] = Array.from({ length: SLOTS }, () => ({
    second: -1,
    calls: 0,
    errors: 0,
    latency: new Uint32Array(LATENCY_BUCKETS),
  }));
  /** Every call's latency since start, by bucket, and their sum in seconds (a Prometheus histogram). */
  readonly sinceStart = { buckets: new Float64Array(LATENCY_BUCKETS), sumSeconds: 0, count: 0 };
  private p95: { second: number; ms: number } = { second: -1, ms: 0 };

  private slot(now: number): Slot {
    const second = Math.floor(now / 1000);
    const slot = this.slots[second % SLOTS] as Slot;
    if (slot.second !== second) {
      slot.second = second;
      slot.calls = 0;
      slot.errors = 0;
      slot.latency.fill(0);
    }
    return slot;
  }

  /** One call answered (or failed) after `ms`. */
  record(ms: number, failed: boolean, now = Date.now()): void {
    const slot = this.slot(now);
    const bucket = bucketOf(ms);
    slot.calls += 1;
    if (failed) slot.errors += 1;
    (slot.latency[bucket] as number) += 1;
    (this.sinceStart.buckets[bucket] as number) += 1;
    this.sinceStart.sumSeconds += ms / 1000;
    this.sinceStart.count += 1;
  }

  /** The last minute: calls, errors, and the latency percentiles (ms). */
  lastMinute(now = Date.now()): { calls: number; errors: number; p50Ms: number; p95Ms: number } {
    const oldest = Math.floor(now / 1000) - SLOTS + 1;
    const histogram = new Array<number>(LATENCY_BUCKETS).fill(0);
    let calls = 0;
    let errors = 0;
    for (const slot of this.slots) {
      if (slot.second < oldest) continue;
      calls += slot.calls;
      errors += slot.errors;
      for (let i = 0; i < LATENCY_BUCKETS; i++) histogram[i] = (histogram[i] as number) + (slot.latency[i] as number);
    }
    return { calls, errors, p50Ms: percentile(histogram, 0.5), p95Ms: percentile(histogram, 0.95) };
  }

  /** The last minute's p95 (ms), worked out at most once a second: the hedge reads it for each read. */
  p95Ms(now = Date.now()): number {
    const second = Math.floor(now / 1000);
    if (this.p95.second !== second) this.p95 = { second, ms: this.lastMinute(now).p95Ms };
    return this.p95.ms;
  }
}

/** The upper bound (seconds) of each latency bucket, for a Prometheus histogram's `le`. */
export const latencyBoundsSeconds = (): number[] =>
  Array.from({ length: LATENCY_BUCKETS }, (_, i) => upperBoundOf(i) / 1000);
