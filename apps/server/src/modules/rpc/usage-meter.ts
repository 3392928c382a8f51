import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { FlushLoop } from '../../jobs/flush-loop.ts';
import { addUsage, type UsageCount } from '../usage/index.ts';
import type { GatewayAccounts } from './rpc-request.ts';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A gateway request's usage always has its key and its compute units. */
type KeyUsage = UsageCount & { apiKeyId: string; computeUnits: number };

/**
 * Counts gateway calls and their compute units in memory per account, key, resource and day (UTC), and writes the
 * counts to the database every few seconds and at shutdown: no database write per request.
 * A failed write keeps its counts for the next one, so nothing counted is lost.
 */
export class UsageMeter {
  /** The counts not yet written, by key (a key's few resources and days in a short list: no key string built per request). */
  private counts = new Map<string, KeyUsage[]>();
  private readonly loop = new FlushLoop(() => this.write());

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** The accounts module's suspension rule, run for the accounts each flush wrote usage for. */
    private readonly refreshBillingStatus: GatewayAccounts['refreshBillingStatus'],
  ) {}

  /** Calls counted per resource since the process started (the operator's metrics). */
  readonly totals = new Map<string, number>();

  count(accountId: string, apiKeyId: string, resource: string, requests: number, units: number, at?: Date): void {
    this.totals.set(resource, (this.totals.get(resource) ?? 0) + requests);
    this.add(accountId, apiKeyId, resource, at ? dayOf(at.getTime()) : this.today(), requests, units);
  }

  private day = '';
  private dayEndsAt = 0;

  /** Today's UTC date, worked out once a day rather than once a request (the gateway's hot path). */
  private today(): string {
    const now = Date.now();
    if (now >= this.dayEndsAt || now < this.dayEndsAt - DAY_MS) {
      this.day = dayOf(now);
      this.dayEndsAt = Date.parse(this.day) + DAY_MS;
    }
    return this.day;
  }

  private add(accountId: string, apiKeyId: string, resource: string, date: string, usage: number, units: number): void {
    const counted = this.counts.get(apiKeyId);
    if (!counted) {
      this.counts.set(apiKeyId, [{ accountId, apiKeyId, resource, date, usage, computeUnits: units }]);
      return;
    }
    for (const entry of counted) {
      if (entry.resource === resource && entry.date === date && entry.accountId === accountId) {
        entry.usage += usage;
        entry.computeUnits += units;
        return;
      }
    }
    counted.push({ accountId, apiKeyId, resource, date, usage, computeUnits: units });
  }

  /** Requests counted and not yet written. */
  get unflushed(): number {
    let total = 0;
    for (const counted of this.counts.values()) for (const c of counted) total += c.usage;
    return total;
  }

  /** Writes what has been counted; flushes run one after another. */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  private async write(): Promise<void> {
    if (this.counts.size === 0) return;
    const batch = [...this.counts.values()].flat();
    this.counts = new Map();
    let accounts: string[];
    try {
      accounts = await addUsage(this.db, batch);
    } catch (error) {
      for (const c of batch) this.add(c.accountId, c.apiKeyId, c.resource, c.date, c.usage, c.computeUnits);
      this.log.error({ err: error, records: batch.length }, 'usage could not be written; kept for the next flush');
      throw error;
    }
    // Unbilled usage counts against the available credit: suspension follows at once (and the
    // billing job's sweep catches up if this fails).
    await this.refreshBillingStatus(this.db, accounts);
  }

  start(intervalMs: number): void {
    this.loop.start(intervalMs);
  }

  /** Stops the timer and writes what is left (at shutdown). */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
