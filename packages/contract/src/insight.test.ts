import { describe, expect, it } from 'vitest';
import { ANALYTICS_RANGES, METHOD_STATS_DAYS } from './insight.ts';

describe('the Analytics ranges', () => {
  it('offer no day that is no longer kept', () => {
    const longest = Math.max(...ANALYTICS_RANGES.map((range) => ('days' in range ? range.days : range.hours / 24)));
    expect(longest).toBe(METHOD_STATS_DAYS);
    expect(ANALYTICS_RANGES.map((range) => range.label)).toEqual([
      'Last 24 Hours',
      'Last 7 Days',
      'Last 14 Days',
      'Last 30 Days',
      'Last 90 Days',
    ]);
  });
});
