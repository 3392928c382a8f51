import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { FlushLoop } from '../../jobs/flush-loop.ts';
import { addStatusHours, dropOldStatusHours, type StatusHourCount } from './status-hours.store.ts';

const HOUR_MS = 3_600_000;

/**
 * Counts each network's calls and those no node answered, per hour, in memory, and writes them with
 * the usage every few seconds (a failed write keeps its counts for the next): the Status page's last
 * 24 hours across every server process.
 */
export class StatusHours {
  private counts = new Map<string, StatusHourCount>();
  private readonly loop = new FlushLoop(() => this.write());

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** `calls` calls of a request to a network, `failed` of them not answered by any node. */
  count(network: string, calls: number, failed: number): void {
    const hour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const counted = this.counts.get(network);
    if (counted && counted.hour === hour) {
      counted.calls += calls;
      counted.failed += failed;
      return;
    }
    // A new hour: the last one's counts wait for the flush under their own key.
    if (counted) this.keep(counted);
    this.counts.set(network, { network, hour, calls, failed });
  }

  flush(): Promise<void> {
    return this.loop.flush();
  }

  private async write(): Promise<void> {
    if (this.counts.size === 0) return;
    const batch = merged([...this.counts.values()]);
    this.counts = new Map();
    try {
      await addStatusHours(this.db, batch);
    } catch (error) {
      for (const c of batch) this.keep(c);
      this.log.error({ err: error }, 'network status hours could not be written; kept for the next flush');
      throw error;
    }
    // Written: a failure to tidy up must not count them again.
    await dropOldStatusHours(this.db).catch((error: unknown) => {
      this.log.warn({ err: error }, 'old network status hours could not be dropped');
    });
  }

  /** Counts set aside until the next write, added to any of the same network and hour. */
  private keep(c: StatusHourCount): void {
    const key = `${c.network}@${c.hour}`;
    const kept = this.counts.get(key);
    if (kept) {
      kept.calls += c.calls;
      kept.failed += c.failed;
    } else this.counts.set(key, c);
  }

  start(intervalMs: number): void {
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}

/** One count per network and hour (a failed write's counts may sit beside the new ones). */
function merged(counts: StatusHourCount[]): StatusHourCount[] {
  const byKey = new Map<string, StatusHourCount>();
  for (const c of counts) {
    const key = `${c.network}@${c.hour}`;
    const kept = byKey.get(key);
    if (kept) {
      kept.calls += c.calls;
      kept.failed += c.failed;
    } else byKey.set(key, { ...c });
  }
  return [...byKey.values()];
}
