import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.ts';

describe('a network’s response cache', () => {
  it('stays within its bytes, dropping the least recently used answers first', () => {
    const cache = new ResponseCache('ethereum/mainnet', 8_000);
    const answer = 'x'.repeat(200);
    for (let i = 0; i < 100; i++) {
      cache.set(`k${i}`, answer);
      // The first answer is read every time, so it is never the least recently used.
      expect(cache.get('k0')).toBe(answer);
    }
    const figures = cache.figures();
    expect(figures.bytes).toBeLessThanOrEqual(8_000);
    expect(figures.entries).toBeGreaterThan(10);
    expect(cache.get('k0')).toBe(answer);
    expect(cache.get('k99')).toBe(answer);
    expect(cache.get('k1')).toBeUndefined();
  });

  it('does not keep an answer larger than an eighth of its bound', () => {
    const cache = new ResponseCache('ethereum/mainnet', 8_000);
    cache.set('big', 'x'.repeat(600));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.figures()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('counts hits and misses, replaces an answer in place, and empties on a flush', () => {
    const cache = new ResponseCache('bsc/mainnet', 100_000);
    cache.set('a', '"0x1"');
    cache.set('a', '"0x2"');
    expect(cache.get('a')).toBe('"0x2"');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.figures()).toMatchObject({ hits: 1, misses: 1, hitRate: 0.5, entries: 1, flushes: 0 });
    const oneEntry = cache.figures().bytes;
    cache.flush();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.figures()).toMatchObject({ entries: 0, bytes: 0, flushes: 1 });
    expect(oneEntry).toBe(2 * ('a'.length + '"0x2"'.length) + 64);
  });
});
