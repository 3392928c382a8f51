import { IdentityErrors } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
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

/**
 * The same fixed windows in Redis (REDIS_URL), shared by every server process: one MULTI per hit
 * (start the window if it is new, count, read its time left). When Redis cannot be reached the
 * hit is allowed and a warning logged: a limiter that is down must not take sign-in or the RPC
 * gateway down with it.
 */
export function redisRateLimiter(redis: Redis, log: FastifyBaseLogger, prefix = 'ebs:rate:'): RateLimiter {
  let warnedAt = 0;
  return {
    async hit(key, rule) {
      const name = `${prefix}${key}`;
      try {
        const results = await redis
          .multi()
          .set(name, 0, 'PX', rule.windowSeconds * 1000, 'NX')
          .incr(name)
          .pttl(name)
          .exec();
        const count = Number(results?.[1]?.[1]);
        const ttl = Number(results?.[2]?.[1]);
        return { allowed: count <= rule.limit, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
      } catch (error) {
        if (Date.now() - warnedAt > 60_000) {
          warnedAt = Date.now();
          log.warn({ err: error }, 'rate limits are not counted: Redis cannot be reached');
        }
        return { allowed: true, retryAfterSeconds: 0 };
      }
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
