import { describe, expect, it } from 'vitest';
import { bucketOf, LATENCY_BUCKETS, merge, percentile, record, upperBoundOf } from './latency-histogram.ts';

describe('latency histograms', () => {
  it('puts each latency in the bucket whose bounds hold it', () => {
    for (const ms of [0.001, 0.05, 0.051, 0.3, 1, 7.5, 42, 999, 30_000]) {
      const bucket = bucketOf(ms);
      expect(ms).toBeLessThanOrEqual(upperBoundOf(bucket));
      if (bucket > 0) expect(ms).toBeGreaterThan(upperBoundOf(bucket - 1));
    }
    expect(bucketOf(10 ** 9)).toBe(LATENCY_BUCKETS - 1);
    expect(bucketOf(Number.NaN)).toBe(0);
  });

  it('reads percentiles within an eighth of the truth', () => {
    const histogram: number[] = [];
    const latencies = Array.from({ length: 1000 }, (_, i) => 1 + i / 10); // 1 … 100.9 ms
    for (const ms of latencies) record(histogram, ms);
    for (const [q, truth] of [
      [0.5, 50.9],
      [0.95, 95.9],
      [0.99, 99.9],
    ] as const) {
      expect(Math.abs(percentile(histogram, q) - truth) / truth).toBeLessThan(0.125);
    }
    expect(percentile([], 0.5)).toBe(0);
  });

  it('merges two processes’ histograms into the one of all their calls', () => {
    const a: number[] = [];
    const b: number[] = [];
    const both: number[] = [];
    for (let i = 0; i < 300; i++) {
      const ms = (i * 7.3) % 250;
      record(i % 3 === 0 ? a : b, ms);
      record(both, ms);
    }
    merge(a, b);
    expect(a).toEqual(both);
    expect(percentile(a, 0.95)).toBe(percentile(both, 0.95));
  });
});
