import { RpcMessages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from '../../http/rate-limit.ts';
import { KeyLimits } from './key-limits.ts';

describe('a key’s limits', () => {
  const at = Date.UTC(2026, 10, 26, 23, 59, 0);

  it('takes the lower of the key’s own limit and the deployment’s, and says whose it met', async () => {
    let now = at;
    const limits = new KeyLimits(
      memoryRateLimiter(() => now),
      { perSecond: 10, perDay: 0 },
      () => now,
    );
    expect(await limits.count('k1', { requestsPerSecond: null, requestsPerDay: null }, 10)).toBeNull();
    expect(await limits.count('k1', { requestsPerSecond: null, requestsPerDay: null }, 1)).toEqual({
      message: RpcMessages.rateLimited(10),
      retryAfterSeconds: 1,
    });
    now += 1000;
    expect(await limits.count('k2', { requestsPerSecond: 3, requestsPerDay: null }, 4)).toEqual({
      message: RpcMessages.perSecondLimit(3),
      retryAfterSeconds: 1,
    });
    // No limit at all: nothing counted.
    const open = new KeyLimits(
      memoryRateLimiter(() => now),
      { perSecond: 0, perDay: 0 },
      () => now,
    );
    expect(await open.count('k3', { requestsPerSecond: null, requestsPerDay: null }, 1_000_000)).toBeNull();
  });

  it('counts the day only for calls the second let through, and resets it at midnight UTC', async () => {
    let now = at - 2000;
    const limits = new KeyLimits(
      memoryRateLimiter(() => now),
      { perSecond: 0, perDay: 0 },
      () => now,
    );
    const own = { requestsPerSecond: 2, requestsPerDay: 5 };
    // A burst refused by the per-second limit does not spend the day.
    for (let i = 0; i < 50; i++) await limits.count('k', own, 3);
    const served = [];
    for (let second = 0; second < 3; second++) {
      now = at + second * 1000;
      served.push(await limits.count('k', own, 2));
    }
    expect(served.slice(0, 2)).toEqual([null, null]);
    expect(served[2]).toEqual({
      message: 'daily request limit of 5 reached, resets at 00:00 UTC',
      retryAfterSeconds: 58,
    });
    // The next UTC day starts afresh.
    now = at + 61_000;
    expect(await limits.count('k', own, 2)).toBeNull();
  });
});
