// Latency of one call made again and again, one at a time, as one user's browser makes it: what a
// page waits for, without other load queueing in front of it.
import { percentile } from './load.ts';

export interface Latency {
  samples: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU this process (the client: requests sent, answers parsed and checked) used per call, in ms. */
  clientCpu: number;
}

export interface Sampling {
  /** Untimed calls first (JIT, caches, the database's buffers), for at most a second after the first two. */
  warmup: number;
  samples: number;
  /** A call slower than this budget stops early (after at least `minSamples`): its p99 is then less sure. */
  maxSeconds: number;
  minSamples: number;
}

/** Milliseconds of each call, timed one after the other; the call throws on a wrong answer. */
export async function latencyOf(call: () => Promise<unknown>, sampling: Sampling): Promise<Latency> {
  const warm = performance.now() + 1000;
  for (let i = 0; i < sampling.warmup && (i < 2 || performance.now() < warm); i++) await call();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  const deadline = performance.now() + sampling.maxSeconds * 1000;
  while (times.length < sampling.samples && (times.length < sampling.minSamples || performance.now() < deadline)) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  const sorted = Float64Array.from(times).sort();
  return {
    clientCpu: (used.user + used.system) / 1000 / times.length,
    samples: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}
