import { isIPv4, isIPv6 } from 'node:net';
import { AppError, IdentityErrors } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

export interface RateRule {
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters. One process keeps them in memory; the interface lets a shared store
 * (Redis) replace it for several processes.
 */
export interface RateLimiter {
  /** Counts `cost` attempts (1 unless said) against a key's window: allowed while the count stays within the limit. */
  hit(key: string, rule: RateRule, cost?: number): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
  /** Failures counted against a key within its window, and the seconds it must still wait (0: none). */
  failures(key: string): Promise<{ count: number; retryAfterSeconds: number }>;
  /** Counts a failure: the window starts again, and past the rule's free failures the key waits. */
  fail(key: string, rule: FailureRule): Promise<void>;
  /** Forgets a key's failures and its wait. */
  forget(key: string): Promise<void>;
  /**
   * Adds `amount` to a running total, raised first to `floor` if it is lower (a total the store lost
   * or never had starts there), kept `ttlSeconds` from now: the total after the addition, or null
   * when the store cannot be reached.
   */
  total(key: string, amount: number, floor: number, ttlSeconds: number): Promise<number | null>;
}

/**
 * Failures of one key slow it down rather than lock it: the first `free` cost nothing, then each
 * further one makes the key wait twice as long as the one before, up to a cap. They are forgotten
 * `windowSeconds` after the last one.
 */
export interface FailureRule {
  free: number;
  firstWaitSeconds: number;
  maxWaitSeconds: number;
  windowSeconds: number;
}

/** The wait that the `failures`-th failure imposes. */
export const waitAfter = (failures: number, rule: FailureRule) =>
  failures < rule.free ? 0 : Math.min(rule.maxWaitSeconds, rule.firstWaitSeconds * 2 ** (failures - rule.free));

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const totals = new Map<string, { total: number; expiresAt: number }>();
  const failed = new Map<string, { count: number; forgetAt: number; waitUntil: number }>();
  const current = (key: string) => {
    const entry = failed.get(key);
    return entry && entry.forgetAt > now() ? entry : undefined;
  };
  return {
    async failures(key) {
      const entry = current(key);
      return {
        count: entry?.count ?? 0,
        retryAfterSeconds: entry ? Math.max(0, Math.ceil((entry.waitUntil - now()) / 1000)) : 0,
      };
    },
    async fail(key, rule) {
      const t = now();
      if (failed.size > 100_000) for (const [k, v] of failed) if (v.forgetAt <= t) failed.delete(k);
      const count = (current(key)?.count ?? 0) + 1;
      failed.set(key, { count, forgetAt: t + rule.windowSeconds * 1000, waitUntil: t + waitAfter(count, rule) * 1000 });
    },
    async forget(key) {
      failed.delete(key);
    },
    async total(key, amount, floor, ttlSeconds) {
      const t = now();
      let entry = totals.get(key);
      if (!entry || entry.expiresAt <= t) {
        if (totals.size > 100_000) for (const [k, v] of totals) if (v.expiresAt <= t) totals.delete(k);
        entry = { total: 0, expiresAt: 0 };
        totals.set(key, entry);
      }
      entry.total = Math.max(entry.total, floor) + amount;
      entry.expiresAt = t + ttlSeconds * 1000;
      return entry.total;
    },
    async hit(key, rule, cost = 1) {
      const t = now();
      let entry = windows.get(key);
      if (!entry || entry.resetAt <= t) {
        if (windows.size > 100_000) for (const [k, v] of windows) if (v.resetAt <= t) windows.delete(k);
        entry = { count: 0, resetAt: t + rule.windowSeconds * 1000 };
        windows.set(key, entry);
      }
      entry.count += cost;
      return { allowed: entry.count <= rule.limit, retryAfterSeconds: Math.ceil((entry.resetAt - t) / 1000) };
    },
  };
}

/** KEYS[1] raised to at least ARGV[2], plus ARGV[1], kept ARGV[3] seconds: one step, whoever else adds. */
const RAISED_TOTAL = `local total = tonumber(redis.call('GET', KEYS[1]) or '0')
local floor = tonumber(ARGV[2])
if total < floor then total = floor end
total = total + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.0f', total), 'EX', ARGV[3])
return string.format('%.0f', total)`;

/**
 * The same fixed windows in Redis (REDIS_URL), shared by every server process: one MULTI per hit
 * (start the window if it is new, count, read its time left). When Redis cannot be reached the
 * hit is allowed and a warning logged: a limiter that is down must not take sign-in or the RPC
 * gateway down with it.
 */
export function redisRateLimiter(redis: Redis, log: FastifyBaseLogger, prefix = 'ebs:rate:'): RateLimiter {
  let warnedAt = 0;
  const warn = (error: unknown) => {
    if (Date.now() - warnedAt > 60_000) {
      warnedAt = Date.now();
      log.warn({ err: error }, 'rate limits are not counted: Redis cannot be reached');
    }
  };
  // A key's failures are a counter that expires a window after the last one; its wait is a second
  // key that expires when the wait ends, so every process reads the same wait.
  return {
    async failures(key) {
      const name = `${prefix}${key}`;
      try {
        const results = await redis.multi().get(name).pttl(`${name}:wait`).exec();
        const ttl = Number(results?.[1]?.[1]);
        return { count: Number(results?.[0]?.[1] ?? 0), retryAfterSeconds: ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
      } catch (error) {
        warn(error);
        return { count: 0, retryAfterSeconds: 0 };
      }
    },
    async fail(key, rule) {
      const name = `${prefix}${key}`;
      try {
        const results = await redis
          .multi()
          .incr(name)
          .pexpire(name, rule.windowSeconds * 1000)
          .exec();
        const wait = waitAfter(Number(results?.[0]?.[1]), rule);
        if (wait > 0) await redis.set(`${name}:wait`, 1, 'PX', wait * 1000);
      } catch (error) {
        warn(error);
      }
    },
    async forget(key) {
      const name = `${prefix}${key}`;
      try {
        await redis.del(name, `${name}:wait`);
      } catch (error) {
        warn(error);
      }
    },
    async total(key, amount, floor, ttlSeconds) {
      const name = `${prefix}${key}`;
      try {
        const total = Number(await redis.eval(RAISED_TOTAL, 1, name, amount, floor, ttlSeconds));
        return Number.isFinite(total) ? total : null;
      } catch (error) {
        warn(error);
        return null;
      }
    },
    async hit(key, rule, cost = 1) {
      const name = `${prefix}${key}`;
      try {
        const results = await redis
          .multi()
          .set(name, 0, 'PX', rule.windowSeconds * 1000, 'NX')
          .incrby(name, cost)
          .pttl(name)
          .exec();
        const count = Number(results?.[1]?.[1]);
        const ttl = Number(results?.[2]?.[1]);
        return { allowed: count <= rule.limit, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
      } catch (error) {
        warn(error);
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
      throw new AppError(IdentityErrors.limitExceeded.error, IdentityErrors.limitExceeded.message, {
        'retry-after': String(retryAfterSeconds),
      });
    }
  }
}

/** A limit per minute and another per day, as the money and chain calls count them. */
export const perMinuteAndDay = (perMinute: number, perDay: number): RateRule[] => [
  { limit: perMinute, windowSeconds: 60 },
  { limit: perDay, windowSeconds: 24 * 60 * 60 },
];

/**
 * The checks of one action, counted against the account and, apart, against the user across every
 * account they are in: many members cannot add up an account's allowance, nor one user spread an
 * attempt over many accounts.
 */
export function accountAndUserChecks(
  action: string,
  who: { accountId: string; userId: string },
  rules: RateRule[],
): Array<[key: string, rule: RateRule]> {
  return rules.flatMap(
    (rule): Array<[string, RateRule]> => [
      [`${action}:account:${who.accountId}:${rule.windowSeconds}`, rule],
      [`${action}:user:${who.userId}:${rule.windowSeconds}`, rule],
    ],
  );
}

/**
 * The client address as per-address limits count it: IPv4 as it is, IPv6 by its /64. One host or
 * one customer line is given a whole /64, so counting full IPv6 addresses would let a single client
 * rotate through 2^64 of them and never meet a limit.
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array(Math.max(0, missing)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
