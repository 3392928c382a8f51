import type { FastifyBaseLogger } from 'fastify';
import type { Jobs } from './registry.ts';

/**
 * Runs every job each interval, one run of a job at a time. Jobs are safe to run from several
 * processes at once (their work is keyed), so each process may run its own scheduler.
 */
export function startScheduler(jobs: Jobs, log: FastifyBaseLogger, intervalSeconds: number): () => void {
  if (intervalSeconds <= 0) return () => {};
  const running = new Set<string>();
  const tick = () => {
    for (const [name, job] of Object.entries(jobs)) {
      if (running.has(name)) continue;
      running.add(name);
      job({ scheduled: true })
        .then((result) => {
          const errors = (result as { errors?: string[] } | undefined)?.errors;
          if (errors?.length) log.warn({ job: name, errors }, 'job could not process some items');
          else log.debug({ job: name, result }, 'job ran');
        })
        .catch((error: unknown) => log.error({ err: error, job: name }, 'job failed'))
        .finally(() => running.delete(name));
    }
  };
  const timer = setInterval(tick, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
