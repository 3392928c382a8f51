import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** One network's calls in one hour (UTC) and how many no node answered. */
export interface StatusHourCount {
  network: string;
  /** The hour's start, ms since the epoch. */
  hour: number;
  calls: number;
  failed: number;
}

/** Hours kept: the Status page shows one day; a week is kept for the operator's questions. */
const KEPT_MS = 7 * 86_400_000;

/** Adds counted hours to the rows every process adds to. */
export async function addStatusHours(db: Db, counts: StatusHourCount[]): Promise<void> {
  if (counts.length === 0) return;
  await db
    .insertInto('rpc_status_hours')
    .values(counts.map((c) => ({ network: c.network, hour: new Date(c.hour), calls: c.calls, failed: c.failed })))
    .onConflict((oc) =>
      oc.columns(['network', 'hour']).doUpdateSet({
        calls: sql`rpc_status_hours.calls + excluded.calls`,
        failed: sql`rpc_status_hours.failed + excluded.failed`,
      }),
    )
    .execute();
}

/** Drops the hours past a week (the status reads the last day only). */
export async function dropOldStatusHours(db: Db): Promise<void> {
  await db
    .deleteFrom('rpc_status_hours')
    .where('hour', '<', new Date(Date.now() - KEPT_MS))
    .execute();
}

/** Every network's hours from `since` (ms) on. */
export async function statusHoursSince(db: Db, since: number): Promise<StatusHourCount[]> {
  const rows = await db
    .selectFrom('rpc_status_hours')
    .select(['network', 'hour', 'calls', 'failed'])
    .where('hour', '>=', new Date(since))
    .execute();
  return rows.map((r) => ({
    network: r.network,
    hour: r.hour.getTime(),
    calls: Number(r.calls),
    failed: Number(r.failed),
  }));
}
