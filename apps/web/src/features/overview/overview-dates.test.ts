import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { monthToDate } from '../../lib/usage-month';
import { axisLabelFormat, axisLabels, daysOf, lastDays, PRESET_DAYS, toBounds } from './overview-dates';

const day = (text: string) => dayjs(`${text}T15:30:00`);

describe('chart ranges', () => {
  it('makes the last 7 days today and the 6 days before it', () => {
    expect(toBounds(lastDays(7, day('2026-11-21')))).toEqual({ dateStart: '2026-11-15', dateEnd: '2026-11-21' });
    expect(daysOf(toBounds(lastDays(7, day('2026-11-21'))))).toHaveLength(7);
  });

  it('offers presets of 7, 14, 30, 90 and 180 days, each ending today', () => {
    expect(PRESET_DAYS).toEqual([7, 14, 30, 90, 180]);
    const today = day('2026-03-02');
    expect(PRESET_DAYS.map((n) => toBounds(lastDays(n, today)))).toEqual([
      { dateStart: '2026-02-24', dateEnd: '2026-03-02' },
      { dateStart: '2026-02-17', dateEnd: '2026-03-02' },
      { dateStart: '2026-02-01', dateEnd: '2026-03-02' },
      { dateStart: '2025-12-03', dateEnd: '2026-03-02' },
      { dateStart: '2025-09-04', dateEnd: '2026-03-02' },
    ]);
  });

  it('covers the month from its first day to today', () => {
    expect(monthToDate(day('2026-11-21'))).toEqual({ dateStart: '2026-11-01', dateEnd: '2026-11-21' });
    expect(monthToDate(day('2027-01-01'))).toEqual({ dateStart: '2027-01-01', dateEnd: '2027-01-01' });
  });
});

describe('days of a range', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('lists every day, across months, years and a leap day', () => {
    expect(daysOf({ dateStart: '2028-02-27', dateEnd: '2028-03-01' })).toEqual([
      '2028-02-27',
      '2028-02-28',
      '2028-02-29',
      '2028-03-01',
    ]);
    expect(daysOf({ dateStart: '2026-12-31', dateEnd: '2027-01-01' })).toEqual(['2026-12-31', '2027-01-01']);
    expect(daysOf({ dateStart: '2026-11-21', dateEnd: '2026-11-21' })).toEqual(['2026-11-21']);
    expect(daysOf({ dateStart: '2026-11-22', dateEnd: '2026-11-21' })).toEqual([]);
  });

  it('neither skips nor repeats a day when the clocks change', () => {
    vi.stubEnv('TZ', 'America/Sao_Paulo');
    expect(daysOf({ dateStart: '2018-11-03', dateEnd: '2018-11-05' })).toEqual([
      '2018-11-03',
      '2018-11-04',
      '2018-11-05',
    ]);
    vi.stubEnv('TZ', 'Europe/Berlin');
    expect(daysOf({ dateStart: '2026-10-24', dateEnd: '2026-10-26' })).toEqual([
      '2026-10-24',
      '2026-10-25',
      '2026-10-26',
    ]);
  });
});

describe('axis labels', () => {
  it("shows 'MMM. DD' within one year", () => {
    const bounds = { dateStart: '2026-11-20', dateEnd: '2026-11-21' };
    expect(axisLabelFormat(bounds)).toBe('MMM. DD');
    expect(axisLabels(bounds, daysOf(bounds))).toEqual(['Nov. 20', 'Nov. 21']);
    expect(axisLabels({ dateStart: '2026-05-01', dateEnd: '2026-05-09' }, ['2026-05-09'])).toEqual(['May. 09']);
  });

  it("adds the year, 'MMM. DD, YYYY', when the range spans two years", () => {
    const bounds = { dateStart: '2026-12-31', dateEnd: '2027-01-01' };
    expect(axisLabelFormat(bounds)).toBe('MMM. DD, YYYY');
    expect(axisLabels(bounds, daysOf(bounds))).toEqual(['Dec. 31, 2026', 'Jan. 01, 2027']);
  });
});
