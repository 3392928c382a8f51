import dayjs, { type Dayjs } from 'dayjs';

/** spec A §9: pickers and query dates are YYYY-MM-DD. */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** spec A §9: the default chart range and the picker's presets, in days. */
export const DEFAULT_RANGE_DAYS = 7;
export const PRESET_DAYS = [7, 14, 30, 90, 180] as const;

export type DayRange = readonly [start: Dayjs, end: Dayjs];

/** The query form of a range: its first and last day, both inclusive. */
export interface DayBounds {
  dateStart: string;
  dateEnd: string;
}

/**
 * "Last N days up to today" is today and the N - 1 days before it, so the chart shows exactly N
 * days and today's usage is in it.
 */
export function lastDays(days: number, today: Dayjs = dayjs()): DayRange {
  const end = today.startOf('day');
  return [end.subtract(days - 1, 'day'), end];
}

export const toBounds = ([start, end]: DayRange): DayBounds => ({
  dateStart: start.format(DAY_FORMAT),
  dateEnd: end.format(DAY_FORMAT),
});

/** Every day of a range, first to last, as YYYY-MM-DD (empty when the range is reversed). */
export function daysOf({ dateStart, dateEnd }: DayBounds): string[] {
  const days: string[] = [];
  const last = dayjs(dateEnd);
  for (let day = dayjs(dateStart); !day.isAfter(last, 'day'); day = day.add(1, 'day')) {
    days.push(day.format(DAY_FORMAT));
  }
  return days;
}

/** spec A §2: axis labels are 'MMM. DD' (e.g. "Nov. 21"), with the year when the range spans two years. */
export function axisLabelFormat({ dateStart, dateEnd }: DayBounds): string {
  return dateStart.slice(0, 4) === dateEnd.slice(0, 4) ? 'MMM. DD' : 'MMM. DD, YYYY';
}

export function axisLabels(bounds: DayBounds, days: readonly string[]): string[] {
  const format = axisLabelFormat(bounds);
  return days.map((day) => dayjs(day).format(format));
}
