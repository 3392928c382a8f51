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

/** The lower of a key's own limit and the deployment's (0: none), and whose it is; null when neither sets one. */
function effective(own: number | null, ceiling: number): { limit: number; own: boolean } | null {
  if (own !== null && (ceiling <= 0 || own < ceiling)) return { limit: own, own: true };
  return ceiling > 0 ? { limit: ceiling, own: false } : null;
}

/**
 * Per-key request limits (docs/api.md "Limits"): calls per second and calls per UTC day, each the
 * lower of the key's own and the deployment's. Every call of a batch counts. Counted in the shared
 * limiter (Redis when REDIS_URL is set), so they hold across server processes; a day's window is
 * named by its date and ends at midnight UTC.
 */
export class KeyLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly ceilings: LimitCeilings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the key has any limit to count against (none: nothing to count, nothing to wait for). */
  applies(own: { requestsPerSecond: number | null; requestsPerDay: number | null }): boolean {
    return (
      effective(own.requestsPerSecond, this.ceilings.perSecond) !== null ||
      effective(own.requestsPerDay, this.ceilings.perDay) !== null
    );
  }

  /** Counts `calls` against the key's limits: the first limit they go past, or null. */
  async count(
    keyId: string,
    own: { requestsPerSecond: number | null; requestsPerDay: number | null },
    calls: number,
  ): Promise<LimitRefusal | null> {
    const perSecond = effective(own.requestsPerSecond, this.ceilings.perSecond);
    const perDay = effective(own.requestsPerDay, this.ceilings.perDay);
    if (perSecond === null && perDay === null) return null;
    const now = this.now();
    const midnight = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
    const day = new Date(now).toISOString().slice(0, 10);
    // The second first: calls it refuses do not spend the day (a burst must not lock a key out until midnight).
    if (perSecond) {
      const second = await this.limiter.hit(`rpc:${keyId}`, { limit: perSecond.limit, windowSeconds: 1 }, calls);
      if (!second.allowed) {
        const message = perSecond.own
          ? RpcMessages.perSecondLimit(perSecond.limit)
          : RpcMessages.rateLimited(perSecond.limit);
        return { message, retryAfterSeconds: second.retryAfterSeconds };
      }
    }
    if (perDay) {
      const windowSeconds = Math.ceil((midnight - now) / 1000);
      const daily = await this.limiter.hit(`rpc-day:${keyId}:${day}`, { limit: perDay.limit, windowSeconds }, calls);
      if (!daily.allowed) return { message: RpcMessages.dailyLimit(perDay.limit), retryAfterSeconds: windowSeconds };
    }
    return null;
  }
}
