import { RpcMessages } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { OneAtATime } from '../../jobs/one-at-a-time.ts';
import { rpcSpendOfMonth } from '../usage/index.ts';
import { type PriceUnits, priceUnitsOf } from './price-book.ts';
import type { SpendingCaps } from './rpc-request.ts';

/** An account the gateway served lately, as this process knows it. */
interface Spender {
  /** Its cap, in 10⁻¹⁰ USD, and as the message shows it; null: none. */
  cap: PriceUnits | null;
  capText: string;
  /** This month's RPC spend across the processes, as last read from the shared counter. */
  total: PriceUnits;
  /** Spent here since then, not yet added to the shared counter. */
  unsynced: PriceUnits;
  /** The month whose total the shared counter holds for it ("YYYY-MM"), once started from the database. */
  month: string;
  seenAt: number;
  /** Set once the total reaches the cap: the gateway refuses its calls until the cap is raised or the month ends. */
  refusal: string | null;
}

/** Accounts not served for this long are forgotten. */
const IDLE_MS = 10 * 60_000;
const MAX_ACCOUNTS = 100_000;
/** The shared counter outlives its month by a few days. */
const COUNTER_TTL_SECONDS = 35 * 86_400;

const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

/**
 * The monthly spending cap (docs/api.md "Pricing"): once an account's RPC usage this month (UTC)
 * reaches its cap, the gateway refuses its calls with HTTP 402 and holds its subscriptions'
 * notifications, until the owner raises the cap or the month ends. Each process adds what it meters
 * to a total shared with the others in the limiter's store (Redis when REDIS_URL is set), never
 * below the month's figure in the database as this process last read it, and reads the caps of
 * the accounts it serves, every `intervalMs`; between two reads, what it spends itself counts at
 * once. The check on a request is a map lookup: no read, no wait.
 */
export class SpendingGuard {
  private readonly spenders = new Map<string, Spender>();
  private timer: NodeJS.Timeout | undefined;
  private readonly syncs = new OneAtATime(() => this.syncNow());

  constructor(
    private readonly db: Db,
    private readonly store: RateLimiter,
    private readonly capsOf: SpendingCaps,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The refusal of an account's calls past its cap, or null. */
  refusal(accountId: string): string | null {
    const spender = this.spenders.get(accountId);
    if (spender) {
      spender.seenAt = this.now();
      return spender.refusal;
    }
    if (this.spenders.size >= MAX_ACCOUNTS) this.forgetIdle(true);
    this.spenders.set(accountId, {
      cap: null,
      capText: '',
      total: 0,
      unsynced: 0,
      month: '',
      seenAt: this.now(),
      refusal: null,
    });
    return null;
  }

  /** Counts what an account's metered calls cost. */
  spent(accountId: string, amount: PriceUnits): void {
    const spender = this.spenders.get(accountId);
    if (!spender || amount === 0) return;
    spender.unsynced += amount;
    if (spender.cap !== null && spender.refusal === null && spender.total + spender.unsynced >= spender.cap) {
      spender.refusal = RpcMessages.spendingCapReached(spender.capText);
    }
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      // A slow database or store: no syncs pile up.
      if (this.syncs.busy) return;
      this.sync().catch((error) => this.log.error({ err: error }, 'spending caps could not be read'));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): Promise<void> {
    clearInterval(this.timer);
    return this.sync().catch(() => {});
  }

  /**
   * Reads the caps, adds this process's spend to the shared totals and reads them back, after any
   * sync under way (one at a time).
   */
  sync(): Promise<void> {
    return this.syncs.run();
  }

  private async syncNow(): Promise<void> {
    this.forgetIdle(false);
    if (this.spenders.size === 0) return;
    // The accounts known now: one first seen while the caps are read waits for the next sync.
    const known = [...this.spenders];
    const caps = new Map<string, string>();
    for (let i = 0; i < known.length; i += 1000) {
      const ids = known.slice(i, i + 1000).map(([id]) => id);
      for (const [id, cap] of await this.capsOf(this.db, ids)) caps.set(id, cap);
    }
    const month = monthOf(this.now());
    const capped: Array<[string, Spender]> = [];
    for (const [id, spender] of known) {
      const cap = caps.get(id);
      if (cap === undefined) {
        // No cap: nothing to count; a cap set later starts from the database's figure.
        Object.assign(spender, { cap: null, capText: '', unsynced: 0, month: '', refusal: null });
      } else {
        spender.cap = priceUnitsOf(cap);
        spender.capText = cap;
        capped.push([id, spender]);
      }
    }
    if (capped.length === 0) return;
    // Accounts whose month's total this process has not started (a new month, a cap just set): the
    // database's figure, below which the shared total may not be.
    const starting = capped.filter(([, s]) => s.month !== month).map(([id]) => id);
    const fromDb = starting.length > 0 ? await rpcSpendOfMonth(this.db, starting, month) : new Map<string, string>();
    await Promise.all(
      capped.map(async ([id, spender]) => {
        const starts = spender.month !== month;
        // A total the store lost (a restarted Redis) starts again from what this process last read.
        const floor = starts ? priceUnitsOf(fromDb.get(id) ?? '0') : spender.total;
        const amount = spender.unsynced;
        spender.unsynced = 0;
        const shared = await this.store.total(`spend:${id}:${month}`, amount, floor, COUNTER_TTL_SECONDS);
        // The store away: this process's own view (from the database's figure) and what it metered since.
        spender.total = shared ?? floor + amount;
        spender.month = month;
        const reached = spender.cap !== null && spender.total + spender.unsynced >= spender.cap;
        spender.refusal = reached ? RpcMessages.spendingCapReached(spender.capText) : null;
      }),
    );
  }

  /** Forgets accounts without a cap not served lately (an account with one is kept: its refusal must not lapse). */
  private forgetIdle(evenRecent: boolean): void {
    const now = this.now();
    for (const [id, spender] of this.spenders) {
      if (now - spender.seenAt > IDLE_MS && spender.cap === null) this.spenders.delete(id);
    }
    if (evenRecent && this.spenders.size >= MAX_ACCOUNTS) {
      const oldest = [...this.spenders].sort((a, b) => a[1].seenAt - b[1].seenAt).slice(0, MAX_ACCOUNTS / 10);
      for (const [id] of oldest) this.spenders.delete(id);
    }
  }
}
