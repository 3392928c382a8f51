// Whether a server process's memory stayed flat through the soak.
//
// The first half of the run is its warm-up: the JIT, the connection pools, V8's heap sizing and the
// caches grow to their working size there (the heap climbs to ~120 MB before the first full
// collection brings it back to ~50), so it is not judged. Over the second half:
// - the V8 heap's floor (the least heap in use in each minute, read every second: what survives
//   collection) must grow by less than MAX_HEAP_SLOPE_MB_PER_MIN along its least-squares line: at
//   the soak's ~580 calls/s that is under ~60 bytes kept per call, where a per-request leak (a map
//   entry, a listener, a closure over a request) keeps hundreds; the floor of one minute wanders by
//   a MB or two, which over 5 points makes a slope of ±0.5 MB/min, so a bound of 1 would fail
//   sound runs now and then;
// - the resident memory's last sample must be within MAX_END_ABOVE_MEDIAN of its median: memory
//   outside the heap (buffers, sockets, native code) that keeps growing shows there.
// The resident memory's own slope is shown, not judged: it moves in steps of ~19 MB, the size of one
// argon2id password hash (memoryCost 19 456 KiB) that a sign-in runs on one of libuv's 4 pool
// threads, whose malloc arena keeps the block once freed (so at most 4 such steps, and a heap floor
// that does not move). One step in the middle of a 5-minute half alone makes a least-squares slope
// of ~6 MB/min; a 10-minute run measured 6.15 and 2.80 MB/min with a heap floor of -0.13 and -0.11.

import { median } from '../support/median.ts';

export const MAX_HEAP_SLOPE_MB_PER_MIN = 2;
export const MAX_END_ABOVE_MEDIAN = 0.15;

export interface MemorySample {
  /** Seconds since the load started. */
  at: number;
  rssMb: number;
  heapMb: number;
}

export interface MemoryVerdict {
  heapFloorSlopeMbPerMin: number;
  rssSlopeMbPerMin: number;
  rssMedianMb: number;
  rssLastMb: number;
  flat: boolean;
}

/** Least-squares slope of y over x. */
export function slope(points: Array<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((s, p) => s + p.x, 0) / n;
  const meanY = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - meanX) * (p.y - meanY);
    den += (p.x - meanX) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * The least heap in use in each minute's worth of samples (`perMinute` in a row), counted back from
 * the last so that every group is whole; each at its samples' mean time.
 */
function heapFloors(samples: MemorySample[], perMinute: number): Array<{ x: number; y: number }> {
  const floors: Array<{ x: number; y: number }> = [];
  for (let end = samples.length; end - perMinute >= 0; end -= perMinute) {
    const group = samples.slice(end - perMinute, end);
    floors.unshift({
      x: group.reduce((sum, s) => sum + s.at, 0) / group.length / 60,
      y: Math.min(...group.map((s) => s.heapMb)),
    });
  }
  return floors;
}

/** The rule above, on the samples (taken every `sampleSeconds`) of one process over a run of `seconds`. */
export function judgeMemory(samples: MemorySample[], seconds: number, sampleSeconds: number): MemoryVerdict {
  const second = samples.filter((s) => s.at >= seconds / 2);
  const heapFloorSlopeMbPerMin = slope(heapFloors(second, Math.max(1, Math.round(60 / sampleSeconds))));
  const rssSlopeMbPerMin = slope(second.map((s) => ({ x: s.at / 60, y: s.rssMb })));
  const rssMedianMb = median(second.map((s) => s.rssMb));
  const rssLastMb = second.at(-1)?.rssMb ?? Number.NaN;
  return {
    heapFloorSlopeMbPerMin,
    rssSlopeMbPerMin,
    rssMedianMb,
    rssLastMb,
    // NaN (a process whose heap could not be read) fails both comparisons: no verdict without figures.
    flat: heapFloorSlopeMbPerMin < MAX_HEAP_SLOPE_MB_PER_MIN && rssLastMb <= rssMedianMb * (1 + MAX_END_ABOVE_MEDIAN),
  };
}
