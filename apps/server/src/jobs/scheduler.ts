import type { FastifyBaseLogger } from 'fastify';

/** How a job was started: by the schedule, or now by an operator (`jobs run NAME`). */
export interface JobRun {
  scheduled: boolean;
}

/** Every scheduled job by name (app/job-registry.ts); `npm run admin -- jobs run NAME` runs one now. */
export type Jobs = Record<string, (run?: JobRun) => Promise<unknown>>;

/** Each job's scheduled runs in this process since start: runs, failed runs, items it could not process (the operator's metrics). */
export interface JobFigures {
  runs: number;
  failures: number;
  itemErrors: number;
}
export const jobRuns = new Map<string, JobFigures>();

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
      const figures = jobRuns.get(name) ?? { runs: 0, failures: 0, itemErrors: 0 };
      jobRuns.set(name, figures);
      job({ scheduled: true })
        .then((result) => {
          figures.runs += 1;
          const errors = (result as { errors?: string[] } | undefined)?.errors;
          figures.itemErrors += errors?.length ?? 0;
          if (errors?.length) log.warn({ job: name, errors }, 'job could not process some items');
          else log.debug({ job: name, result }, 'job ran');
        })
        .catch((error: unknown) => {
          figures.runs += 1;
          figures.failures += 1;
          log.error({ err: error, job: name }, 'job failed');
        })
        .finally(() => running.delete(name));
    }
  };
  const timer = setInterval(tick, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
