import { RpcMessages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { memoryRateLimiter, type RateLimiter } from '../../http/rate-limit.ts';
import { KeyLimits, type OwnLimits } from './key-limits.ts';

const NONE: OwnLimits = {
  requestsPerSecond: null,
  requestsPerDay: null,
  computeUnitsPerSecond: null,
  computeUnitsPerDay: null,
};

/** The memory limiter, recording the counters each request touched. */
function recorded(now: () => number): RateLimiter & { counters: string[] } {
  const limiter = memoryRateLimiter(now);
  const counters: string[] = [];
  return {
    ...limiter,
    counters,
    hit: (key, rule, cost) => {
      counters.push(key.replace(/:.*/, ''));
      return limiter.hit(key, rule, cost);
    },
  };
}

describe('a key’s limits', () => {
  const at = Date.UTC(2026, 10, 26, 23, 59, 0);

  it('takes the lower of the key’s own limit and the deployment’s, and says whose it met', async () => {
    let now = at;
    const limits = new KeyLimits(
      memoryRateLimiter(() => now),
      { perSecond: 10, perDay: 0 },
      () => now,
    );
    expect(await limits.count('k1', NONE, 10, 10)).toBeNull();
    expect(await limits.count('k1', NONE, 1, 1)).toEqual({
      message: RpcMessages.rateLimited(10),
      retryAfterSeconds: 1,
    });
    now += 1000;
    expect(await limits.count('k2', { ...NONE, requestsPerSecond: 3 }, 4, 4)).toEqual({
      message: RpcMessages.perSecondLimit(3),
      retryAfterSeconds: 1,
    });
    // No limit at all: nothing counted.
    const open = new KeyLimits(
      memoryRateLimiter(() => now),
      { perSecond: 0, perDay: 0 },
      () => now,
    );
    expect(open.applies(NONE)).toBe(false);
    expect(await open.count('k3', NONE, 1_000_000, 1_000_000)).toBeNull();
  });

  it('counts the day only for calls the second let through, and resets it at midnight UTC', async () => {
    let now = at - 2000;
    const limits = new KeyLimits(
      memoryRateLimiter(() => now),
      { perSecond: 0, perDay: 0 },
      () => now,
    );
    const own = { ...NONE, requestsPerSecond: 2, requestsPerDay: 5 };
    // A burst refused by the per-second limit does not spend the day.
    for (let i = 0; i < 50; i++) await limits.count('k', own, 3, 3);
    const served = [];
    for (let second = 0; second < 3; second++) {
      now = at + second * 1000;
      served.push(await limits.count('k', own, 2, 2));
    }
    expect(served.slice(0, 2)).toEqual([null, null]);
    expect(served[2]).toEqual({
      message: 'daily request limit of 5 reached, resets at 00:00 UTC',
      retryAfterSeconds: 58,
    });
    // The next UTC day starts afresh.
    now = at + 61_000;
    expect(await limits.count('k', own, 2, 2)).toBeNull();
  });
});

describe('a key’s limits in compute units', () => {
  const at = Date.UTC(2026, 10, 26, 23, 59, 0);
  const ceilings = { perSecond: 0, perDay: 0 };

  it('applies when only a compute unit limit is set, with no deployment ceiling', () => {
    const limits = new KeyLimits(memoryRateLimiter(), ceilings);
    expect(limits.applies({ ...NONE, computeUnitsPerSecond: 100 })).toBe(true);
    expect(limits.applies({ ...NONE, computeUnitsPerDay: 100 })).toBe(true);
  });

  it('refuses past the compute units per second, whatever the number of calls, for the rest of that second', async () => {
    let now = at;
    const limits = new KeyLimits(
      memoryRateLimiter(() => now),
      ceilings,
      () => now,
    );
    const own = { ...NONE, computeUnitsPerSecond: 100 };
    expect(await limits.count('k', own, 1, 60)).toBeNull();
    expect(await limits.count('k', own, 1, 40)).toBeNull();
    expect(await limits.count('k', own, 1, 1)).toEqual({
      message: 'compute unit limit of 100 per second reached, resets in 1 second',
      retryAfterSeconds: 1,
    });
    expect(RpcMessages.perSecondComputeUnits(100)).toBe(
      'compute unit limit of 100 per second reached, resets in 1 second',
    );
    // One call costing more than the second allows is refused as well.
    now += 1000;
    expect((await limits.count('k', own, 1, 101))?.message).toBe(RpcMessages.perSecondComputeUnits(100));
    now += 1000;
    expect(await limits.count('k', own, 50, 100)).toBeNull();
  });

  it('refuses past the compute units of the UTC day until midnight, and starts afresh the next day', async () => {
    let now = at;
    const limits = new KeyLimits(
      memoryRateLimiter(() => now),
      ceilings,
      () => now,
    );
    const own = { ...NONE, computeUnitsPerDay: 500 };
    expect(await limits.count('k', own, 1, 300)).toBeNull();
    now += 1000;
    expect(await limits.count('k', own, 1, 200)).toBeNull();
    now += 1000;
    expect(await limits.count('k', own, 1, 20)).toEqual({
      message: RpcMessages.dailyComputeUnits(500),
      retryAfterSeconds: 58,
    });
    expect(RpcMessages.dailyComputeUnits(500)).toBe('daily compute unit limit of 500 reached, resets at 00:00 UTC');
    now = at + 61_000;
    expect(await limits.count('k', own, 1, 20)).toBeNull();
  });

  it('checks calls per second, compute units per second, calls per day, then compute units per day', async () => {
    let now = at - 10_000;
    const limiter = recorded(() => now);
    const limits = new KeyLimits(limiter, ceilings, () => now);
    const own = { requestsPerSecond: 5, computeUnitsPerSecond: 50, requestsPerDay: 8, computeUnitsPerDay: 120 };

    // Past both per-second limits: the calls' is met first, and nothing else is counted.
    expect((await limits.count('k', own, 6, 60))?.message).toBe(RpcMessages.perSecondLimit(5));
    expect(limiter.counters).toEqual(['rpc']);
    // Within the calls' second, past its compute units: the day is not spent.
    now += 1000;
    limiter.counters.length = 0;
    expect((await limits.count('k', own, 1, 60))?.message).toBe(RpcMessages.perSecondComputeUnits(50));
    expect(limiter.counters).toEqual(['rpc', 'rpc-cu']);
    // Within both seconds: both days are counted, the calls' first.
    now += 1000;
    limiter.counters.length = 0;
    expect(await limits.count('k', own, 5, 50)).toBeNull();
    expect(limiter.counters).toEqual(['rpc', 'rpc-cu', 'rpc-day', 'rpc-cu-day']);
    // Past both days' limits: the calls' day is named.
    now += 1000;
    expect(await limits.count('k', own, 4, 50)).toEqual({
      message: RpcMessages.dailyLimit(8),
      retryAfterSeconds: 67,
    });
    // Calls within their day (a new key), compute units past theirs.
    now += 1000;
    expect(await limits.count('k2', own, 1, 50)).toBeNull();
    now += 1000;
    expect(await limits.count('k2', own, 1, 50)).toBeNull();
    now += 1000;
    expect(await limits.count('k2', own, 1, 50)).toEqual({
      message: RpcMessages.dailyComputeUnits(120),
      retryAfterSeconds: 64,
    });
  });

  it('never refuses a request of no compute units by a compute unit limit, and counts nothing there for it', async () => {
    const now = at;
    const limiter = recorded(() => now);
    const limits = new KeyLimits(limiter, ceilings, () => now);
    const own = { ...NONE, computeUnitsPerSecond: 10, computeUnitsPerDay: 10 };
    expect((await limits.count('k', own, 1, 11))?.message).toBe(RpcMessages.perSecondComputeUnits(10));
    limiter.counters.length = 0;
    for (let i = 0; i < 5; i++) expect(await limits.count('k', own, 3, 0)).toBeNull();
    expect(limiter.counters).toEqual([]);
    // The calls' limits still count such a request.
    const both = { ...own, requestsPerSecond: 2 };
    expect((await limits.count('k', both, 3, 0))?.message).toBe(RpcMessages.perSecondLimit(2));
    expect(limiter.counters).toEqual(['rpc']);
  });

  it('touches no compute unit counter for a key without compute unit limits', async () => {
    const limiter = recorded(Date.now);
    const limits = new KeyLimits(limiter, { perSecond: 100, perDay: 1000 });
    expect(await limits.count('k', NONE, 1, 500)).toBeNull();
    expect(limiter.counters).toEqual(['rpc', 'rpc-day']);
  });
});
