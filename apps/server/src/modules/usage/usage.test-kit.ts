// Seeds and reads for other modules' tests: the way into this module's tables from outside it.
import type { Db } from '../../db/database.ts';
import { addUsage as addCounts, type UsageCount } from './usage.store.ts';

export { listUsage } from './usage.store.ts';

/** Adds counts as the gateway does; a count that names no compute units costs one a call (none for token forwards). */
export const addUsage = (db: Db, counts: Array<Omit<UsageCount, 'computeUnits'> & { computeUnits?: number | null }>) =>
  addCounts(
    db,
    counts.map((c) => ({ ...c, computeUnits: c.computeUnits ?? null })),
  );
