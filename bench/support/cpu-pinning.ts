import { spawnSync } from 'node:child_process';
import os from 'node:os';

/**
 * Keeps the load generator off the servers' cores: on a machine of N ≥ 2 cores, this process (the
 * load generator) runs on the last core and every measured server on the others, so that a target
 * never competes with the load sent to it. BENCH_PIN=off leaves scheduling to the kernel.
 */
export interface Pinning {
  bench: string;
  servers: string;
}

export function cpuPinning(): Pinning | undefined {
  const cores = os.availableParallelism();
  if (process.env.BENCH_PIN === 'off' || cores < 2) return undefined;
  if (spawnSync('taskset', ['-V']).status !== 0) return undefined;
  const last = cores - 1;
  return { bench: String(last), servers: last === 1 ? '0' : `0-${last - 1}` };
}

/** Moves a running process, all its threads included, to the given cores. */
export function pin(pid: number | undefined, cores: string): void {
  if (pid === undefined) return;
  const result = spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`taskset could not pin ${pid} to ${cores}: ${result.stderr}`);
}
