import { RpcMessages } from '@ebs/contract';
import type { RateLimiter } from '../../http/rate-limit.ts';

/** A limit the gateway met: its message and when to retry. */
export interface LimitRefusal {
  message: string;
  retryAfterSeconds: number;
}

/** The deployment's ceilings on every key (0: none), which a key's own limits may only lower. */
export interface LimitCeilings {
  perSecond: number;
  perDay: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A key's own limits (null: none of its own): calls, and compute units, per second and per UTC day. */
export interface OwnLimits {
  requestsPerSecond: number | null;
  requestsPerDay: number | null;
  computeUnitsPerSecond: number | null;
  computeUnitsPerDay: number | null;
}

/** The lower of a key's own limit and the deployment's (0: none), and whose it is; null when neither sets one. */
function effective(own: number | null, ceiling: number): { limit: number; own: boolean } | null {
  if (own !== null && (ceiling <= 0 || own < ceiling)) return { limit: own, own: true };
  return ceiling > 0 ? { limit: ceiling, own: false } : null;
}

/**
 * Per-key limits (docs/api.md "Limits"): calls per second and calls per UTC day, each the lower of
 * the key's own and the deployment's, and the key's own compute units per second and per UTC day
 * (no deployment ceiling). Every call of a batch counts, and every compute unit it costs. Counted
 * in the shared limiter (Redis when REDIS_URL is set), so they hold across server processes; a
 * day's window is named by its date and ends at midnight UTC.
 */
export class KeyLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly ceilings: LimitCeilings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the key has any limit to count against (none: nothing to count, nothing to wait for). */
  applies(own: OwnLimits): boolean {
    return (
      this.ceilings.perSecond > 0 ||
      this.ceilings.perDay > 0 ||
      own.requestsPerSecond !== null ||
      own.requestsPerDay !== null ||
      own.computeUnitsPerSecond !== null ||
      own.computeUnitsPerDay !== null
    );
  }

  /**
   * Counts `calls` and the `computeUnits` they cost against the key's limits: the first limit they
   * go past, or null. Calls per second, then compute units per second, then the day's calls, then
   * the day's compute units: what a second refuses does not spend the day (a burst must not lock a
   * key out until midnight). A limit that is not set costs nothing; nor does a request of no
   * compute units against a compute unit limit, which never refuses it.
   */
  async count(keyId: string, own: OwnLimits, calls: number, computeUnits: number): Promise<LimitRefusal | null> {
    const perSecond = effective(own.requestsPerSecond, this.ceilings.perSecond);
    const perDay = effective(own.requestsPerDay, this.ceilings.perDay);
    const unitsPerSecond = computeUnits > 0 ? own.computeUnitsPerSecond : null;
    const unitsPerDay = computeUnits > 0 ? own.computeUnitsPerDay : null;
    if (perSecond === null && perDay === null && unitsPerSecond === null && unitsPerDay === null) return null;
    const now = this.now();
    if (perSecond) {
      const second = await this.limiter.hit(`rpc:${keyId}`, { limit: perSecond.limit, windowSeconds: 1 }, calls);
      if (!second.allowed) {
        const message = perSecond.own
          ? RpcMessages.perSecondLimit(perSecond.limit)
          : RpcMessages.rateLimited(perSecond.limit);
        return { message, retryAfterSeconds: second.retryAfterSeconds };
      }
    }
    if (unitsPerSecond !== null) {
      const rule = { limit: unitsPerSecond, windowSeconds: 1 };
      const second = await this.limiter.hit(`rpc-cu:${keyId}`, rule, computeUnits);
      if (!second.allowed) {
        const message = RpcMessages.perSecondComputeUnits(unitsPerSecond);
        return { message, retryAfterSeconds: second.retryAfterSeconds };
      }
    }
    if (perDay === null && unitsPerDay === null) return null;
    const day = new Date(now).toISOString().slice(0, 10);
    const windowSeconds = Math.ceil((Math.floor(now / DAY_MS) * DAY_MS + DAY_MS - now) / 1000);
    if (perDay) {
      const daily = await this.limiter.hit(`rpc-day:${keyId}:${day}`, { limit: perDay.limit, windowSeconds }, calls);
      if (!daily.allowed) return { message: RpcMessages.dailyLimit(perDay.limit), retryAfterSeconds: windowSeconds };
    }
    if (unitsPerDay !== null) {
      const rule = { limit: unitsPerDay, windowSeconds };
      const daily = await this.limiter.hit(`rpc-cu-day:${keyId}:${day}`, rule, computeUnits);
      if (!daily.allowed)
        return { message: RpcMessages.dailyComputeUnits(unitsPerDay), retryAfterSeconds: windowSeconds };
    }
    return null;
  }
}
