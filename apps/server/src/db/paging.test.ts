import { describe, expect, it } from 'vitest';
import { nearerEnd } from './paging.ts';

describe('nearerEnd', () => {
  it('reads the first half of a list forwards', () => {
    expect(nearerEnd(1000, 0, 10, 'desc')).toEqual({ offset: 0, limit: 10, order: 'desc', reversed: false });
    expect(nearerEnd(1000, 490, 10, 'asc')).toEqual({ offset: 490, limit: 10, order: 'asc', reversed: false });
  });

  it('reads the second half backwards from the end, as many rows as the page holds', () => {
    expect(nearerEnd(1000, 990, 10, 'desc')).toEqual({ offset: 0, limit: 10, order: 'asc', reversed: true });
    expect(nearerEnd(1000, 500, 10, 'asc')).toEqual({ offset: 490, limit: 10, order: 'desc', reversed: true });
  });

  it('reads a short last page backwards with only its rows', () => {
    expect(nearerEnd(25, 20, 10, 'desc')).toEqual({ offset: 0, limit: 5, order: 'asc', reversed: true });
  });

  it('reads nothing past the end', () => {
    expect(nearerEnd(25, 30, 10, 'desc').limit).toBe(0);
    expect(nearerEnd(0, 0, 10, 'asc').limit).toBe(0);
  });
});
