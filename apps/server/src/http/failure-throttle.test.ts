import { AppError, IdentityErrors } from '@ebs/contract';
import { Redis } from 'ioredis';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FailureThrottle } from './failure-throttle.ts';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './rate-limit.ts';

const wrong = async () => {
  throw new AppError('NotAuthorizedException', 'wrong');
};
const right = async () => 'ok';
/** The Retry-After a refused attempt answers, or 0 when the attempt was let through. */
const heldFor = (throttle: FailureThrottle, ip: string, proof: () => Promise<unknown> = wrong) =>
  throttle.attempt('jane@example.com', ip, proof).then(
    () => 0,
    (error: AppError) => (error.statusCode === 429 ? Number(error.headers?.['retry-after']) : 0),
  );

describe('failure throttle', () => {
  it('makes an address that keeps failing wait longer each time, up to 15 minutes', async () => {
    let t = 0;
    const limiter = memoryRateLimiter(() => t);
    const throttle = new FailureThrottle(limiter, 'signin');
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      expect(await heldFor(throttle, '203.0.113.7')).toBe(0);
      const { retryAfterSeconds } = await limiter.failures('fail:signin:jane@example.com:203.0.113.7');
      waits.push(retryAfterSeconds);
      t += retryAfterSeconds * 1000;
    }
    expect(waits).toEqual([0, 0, 0, 0, 30, 60, 120, 240, 480, 900, 900, 900]);
  });

  it('never holds back an address without failures of its own', async () => {
    const throttle = new FailureThrottle(memoryRateLimiter(), 'signin');
    for (let i = 0; i < 30; i++) await heldFor(throttle, `203.0.113.${i}`);
    expect(await heldFor(throttle, '198.51.100.9', right)).toBe(0);
  });

  it('forgets an address’s failures after a right proof from it', async () => {
    const throttle = new FailureThrottle(memoryRateLimiter(), 'signin');
    for (let i = 0; i < 4; i++) await heldFor(throttle, '198.51.100.10');
    expect(await heldFor(throttle, '198.51.100.10', right)).toBe(0);
    for (let i = 0; i < 4; i++) expect(await heldFor(throttle, '198.51.100.10')).toBe(0);
  });

  it('makes every failing address wait once the subject has many failures', async () => {
    const throttle = new FailureThrottle(memoryRateLimiter(), 'signin');
    for (let i = 0; i < 20; i++) await heldFor(throttle, `203.0.113.${i}`);
    expect(await heldFor(throttle, '203.0.113.0', right)).toBe(30);
    await expect(throttle.attempt('jane@example.com', '203.0.113.0', right)).rejects.toMatchObject({
      message: IdentityErrors.limitExceeded.message,
    });
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('counts failures across processes sharing Redis', async () => {
    const clients = [new Redis(String(process.env.TEST_REDIS_URL)), new Redis(String(process.env.TEST_REDIS_URL))];
    const prefix = `ebs:test:${Math.random().toString(36).slice(2)}:`;
    const [first, second] = clients.map((r) => redisRateLimiter(r, pino({ level: 'silent' }), prefix)) as [
      RateLimiter,
      RateLimiter,
    ];
    try {
      const one = new FailureThrottle(first, 'signin');
      const two = new FailureThrottle(second, 'signin');
      for (let i = 0; i < 5; i++) await heldFor(i % 2 ? one : two, '203.0.113.7');
      expect(await heldFor(one, '203.0.113.7', right)).toBe(30);
      expect(await heldFor(two, '203.0.113.7', right)).toBe(30);
      expect(await heldFor(two, '198.51.100.9', right)).toBe(0);
    } finally {
      for (const r of clients) r.disconnect();
    }
  });
});
