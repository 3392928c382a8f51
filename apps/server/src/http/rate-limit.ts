import { IdentityErrors } from '@ebs/contract';
import { AppError } from './errors.ts';

export interface RateRule {
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters. One process keeps them in memory; the interface lets a shared store
 * (Redis) replace it for several processes.
 */
export interface RateLimiter {
  hit(key: string, rule: RateRule): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, rule) {
      const t = now();
      let entry = windows.get(key);
      if (!entry || entry.resetAt <= t) {
        if (windows.size > 100_000) for (const [k, v] of windows) if (v.resetAt <= t) windows.delete(k);
        entry = { count: 0, resetAt: t + rule.windowSeconds * 1000 };
        windows.set(key, entry);
      }
      entry.count += 1;
      return { allowed: entry.count <= rule.limit, retryAfterSeconds: Math.ceil((entry.resetAt - t) / 1000) };
    },
  };
}

/** Counts one attempt against each key; past a limit, LimitExceededException with Retry-After. */
export async function enforce(limiter: RateLimiter, checks: Array<[key: string, rule: RateRule]>): Promise<void> {
  for (const [key, rule] of checks) {
    const { allowed, retryAfterSeconds } = await limiter.hit(key, rule);
    if (!allowed) {
      throw new AppError(429, IdentityErrors.limitExceeded.message, IdentityErrors.limitExceeded.error, {
        'retry-after': String(retryAfterSeconds),
      });
    }
  }
}
