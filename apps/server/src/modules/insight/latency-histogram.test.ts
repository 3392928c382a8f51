import { describe, expect, it } from 'vitest';
import {
  bucketOf,
  LATENCY_BUCKETS,
  merge,
  packCounts,
  percentile,
  record,
  unpackCounts,
  upperBoundOf,
} from './latency-histogram.ts';

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

  it('writes a histogram as one number whose sums are the histograms added bucket by bucket', () => {
    const a = [0, 3, 0, 0, 12_345_678_901, 7];
    const b = [5, 0, 0, 0, 99, 0, 0, 1];
    expect(packCounts([])).toBe('0');
    expect(packCounts([0, 0])).toBe('0');
    expect(packCounts([7])).toBe('7');
    expect(packCounts([0, 1])).toBe(`1${'0'.repeat(16)}`);
    expect(unpackCounts(packCounts(a))).toEqual(a);
    expect(unpackCounts(packCounts(b))).toEqual(b);
    expect(unpackCounts('0')).toEqual([]);
    // The sum as the database adds two numerics: exactly, digit by digit.
    const sum = (BigInt(packCounts(a)) + BigInt(packCounts(b))).toString();
    const added = [...a];
    merge(added, b);
    expect(unpackCounts(sum)).toEqual(added);
    // Every bucket the gateway fills, with counts up to the bound.
    const full = Array.from({ length: LATENCY_BUCKETS }, (_, i) => (i % 3 === 0 ? 10 ** 15 + i : i));
    expect(unpackCounts(packCounts(full))).toEqual(full);
  });
});
