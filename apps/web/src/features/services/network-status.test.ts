import { describe, expect, it } from 'vitest';
import { formatAge, formatShare, headText, hourText, hourTone, lastDayText } from './network-status';
import { lastDay } from './status-test-kit';

describe('network status in words', () => {
  it.each([
    [1, 'good'],
    [0.999, 'good'],
    [0.9989, 'fair'],
    [0.99, 'fair'],
    [0.9899, 'poor'],
    [0, 'poor'],
    [null, 'none'],
  ] as const)('colours an hour with share %s as %s', (share, tone) => {
    expect(hourTone(share)).toBe(tone);
  });

  it('rounds a share down to two decimals, so an hour with a failed call never reads 100%', () => {
    expect(formatShare(1)).toBe('100%');
    expect(formatShare(0.99996)).toBe('99.99%');
    expect(formatShare(0.9995)).toBe('99.95%');
    expect(formatShare(0.99)).toBe('99%');
    expect(formatShare(0)).toBe('0%');
  });

  it('names an hour by its UTC start and says its share, or that it had no calls', () => {
    const [first, second] = lastDay([0.9995, null]);
    expect(hourText({ ...first!, hour: '2026-11-20T14:00:00.000Z' })).toBe('14:00 UTC: 99.95% answered');
    expect(hourText(second!)).toBe('01:00 UTC: No calls');
  });

  it('sums up the day as the mean of the hours that had calls', () => {
    // Two hours with calls: (0.99 + 0.98) / 2, the 22 without them left out.
    expect(lastDayText(lastDay([0.99, 0.98, ...Array(22).fill(null)]))).toBe(
      '98.5% of calls answered in the last 24 hours',
    );
    expect(lastDayText(lastDay(Array(24).fill(null)))).toBe('No calls in the last 24 hours');
  });

  it('says how old the head is in its largest whole unit', () => {
    expect(formatAge(4.6)).toBe('4 s');
    expect(formatAge(125)).toBe('2 min');
    expect(formatAge(7200)).toBe('2 h');
    expect(formatAge(3 * 86_400 + 5)).toBe('3 d');
    expect(headText({ head: 19_000_000, headAgeSeconds: 4 })).toBe('Block 19,000,000, 4 s ago');
    expect(headText({ head: 12, headAgeSeconds: null })).toBe('Block 12');
    expect(headText({ head: null, headAgeSeconds: null })).toBe('No block read yet');
  });
});
