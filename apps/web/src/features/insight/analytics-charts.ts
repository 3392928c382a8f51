import type { MethodSeries } from '@ebs/contract';
import type { ChartOption } from '../../components/echart';
import type { AnalyticsRange } from './insight-queries';
import { InsightTexts as T } from './insight-texts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Methods charted on their own; the rest are summed as Other. */
export const CHARTED_METHODS = 7;

export interface AnalyticsCharts {
  labels: string[];
  methods: Array<{ name: string; values: number[] }>;
  /** Errors ÷ calls per slot (refusals are not the method's errors); 0 where nothing was called. */
  errorRate: number[];
  p50: Array<number | null>;
  p95: Array<number | null>;
}

/** Every hour of the last 24, or every day of the range (UTC), as instants. */
function slotsOf(range: AnalyticsRange, now: number): number[] {
  if ('hours' in range) {
    const last = now - (now % HOUR_MS);
    return Array.from({ length: range.hours }, (_, i) => last - (range.hours - 1 - i) * HOUR_MS);
  }
  const today = now - (now % DAY_MS);
  return Array.from({ length: range.days }, (_, i) => today - (range.days - 1 - i) * DAY_MS);
}

/**
 * The charts' data: every slot of the range on the axis (an empty one at 0), the most called
 * methods stacked with the rest as Other, the error rate and latency per slot.
 */
export function analyticsCharts(series: MethodSeries, range: AnalyticsRange, now = Date.now()): AnalyticsCharts {
  const slots = slotsOf(range, now);
  const index = new Map(slots.map((slot, i) => [slot, i]));
  const totals = new Map<string, number>();
  for (const point of series.points) totals.set(point.method, (totals.get(point.method) ?? 0) + point.calls);
  const charted = [...totals.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, totals.size > CHARTED_METHODS ? CHARTED_METHODS - 1 : CHARTED_METHODS)
    .map(([name]) => name);
  const names = totals.size > charted.length ? [...charted, T.other] : charted;
  const values = names.map(() => slots.map(() => 0));
  const calls = slots.map(() => 0);
  const errors = slots.map(() => 0);
  for (const point of series.points) {
    const at = index.get(Date.parse(point.time));
    if (at === undefined) continue;
    const row = charted.indexOf(point.method);
    const line = values[row < 0 ? names.length - 1 : row];
    if (line) line[at] = (line[at] ?? 0) + point.calls;
    calls[at] = (calls[at] ?? 0) + point.calls;
    errors[at] = (errors[at] ?? 0) + point.errors;
  }
  const p50 = slots.map((): number | null => null);
  const p95 = slots.map((): number | null => null);
  for (const point of series.latency) {
    const at = index.get(Date.parse(point.time));
    if (at === undefined) continue;
    p50[at] = point.p50Ms;
    p95[at] = point.p95Ms;
  }
  const hourly = 'hours' in range;
  return {
    labels: slots.map((slot) => new Date(slot).toISOString().slice(hourly ? 11 : 5, hourly ? 16 : 10)),
    methods: names.map((name, i) => ({ name, values: values[i] ?? [] })),
    // Every hour or day has its point: a slot without calls had no errors.
    errorRate: calls.map((n, i) => (n === 0 ? 0 : (errors[i] ?? 0) / n)),
    p50,
    p95,
  };
}

const base = (labels: string[]): ChartOption => ({
  aria: { enabled: true },
  grid: { top: 32, left: 16, right: 24, bottom: 24, containLabel: true },
  legend: { top: 0, type: 'scroll' },
  xAxis: { type: 'category', boundaryGap: false, data: labels },
});

/** Calls per slot, one stacked area per method. */
export const callsOption = (charts: AnalyticsCharts): ChartOption => ({
  ...base(charts.labels),
  tooltip: { trigger: 'axis' },
  yAxis: { type: 'value', minInterval: 1 },
  series: charts.methods.map((m) => ({
    name: m.name,
    type: 'line',
    stack: 'calls',
    areaStyle: {},
    showSymbol: false,
    emphasis: { focus: 'series' },
    data: m.values,
  })),
});

/** The share of calls that failed, per slot. */
export const errorRateOption = (charts: AnalyticsCharts): ChartOption => ({
  ...base(charts.labels),
  tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? T.percent(value) : '-') },
  yAxis: { type: 'value', min: 0, axisLabel: { formatter: (value: number) => T.percent(value) } },
  series: [{ name: T.errorRate, type: 'line', symbolSize: 6, data: charts.errorRate }],
});

/** Median and 95th percentile latency per slot. */
export const latencyOption = (charts: AnalyticsCharts): ChartOption => ({
  ...base(charts.labels),
  tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? T.ms(value) : '-') },
  yAxis: { type: 'value', min: 0, axisLabel: { formatter: '{value} ms' } },
  series: [
    // Points drawn: a slot between empty ones has no line to show it.
    { name: T.p50, type: 'line', symbolSize: 6, data: charts.p50 },
    { name: T.p95, type: 'line', symbolSize: 6, data: charts.p95 },
  ],
});
