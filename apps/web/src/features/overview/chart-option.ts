import { resourceTitle } from '@ebs/contract';
import type { ChartOption } from '../../components/echart';
import { Texts } from '../../lib/texts';
import type { Measure, ResourceSeries } from './usage-sums';

export type { ChartOption };

const requests = new Intl.NumberFormat('en-US');
// Prices are fractions of a cent per compute unit: no exponent notation and no rounding away of digits.
const usd = new Intl.NumberFormat('en-US', { maximumFractionDigits: 10 });

/** How a tooltip shows one value: "1,234 requests" or "0.00006 USD". */
export function formatValue(measure: Measure, value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return '-';
  return measure === 'usage'
    ? `${requests.format(n)} ${Texts.overview.requests}`
    : `${usd.format(n)} ${Texts.overview.usd}`;
}

/**
 * Tableau's ten colours, made to be told apart (also by most colour-blind readers), then eight
 * more: the 18 resources of the billing chart each get a colour of their own. Named here so the
 * legend beside the canvas shows each series' colour.
 */
const PALETTE = [
  ...['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f'],
  ...['#bab0ac', '#1f3b73', '#8c564b', '#17becf', '#bcbd22', '#7f7f7f', '#2ca02c', '#9467bd', '#d62728'],
];

const used = (s: ResourceSeries) => s.values.some((value) => value !== 0);

/**
 * Each series' colour: the series with usage in the range take the palette's first colours, in
 * order, so the few a chart shows are the most distinct; those without usage draw nothing.
 */
function seriesColours(series: readonly ResourceSeries[]): string[] {
  let next = 0;
  const colours = series.map((s) => (used(s) ? (PALETTE[next++ % PALETTE.length] ?? '') : ''));
  return colours.map((colour) => colour || (PALETTE[next++ % PALETTE.length] ?? ''));
}

export interface LegendEntry {
  name: string;
  color: string;
}

/**
 * One legend entry per series that has usage in the range, in the series' order and colour: a
 * resource with nothing to show would only lengthen the legend (the billing chart has 18).
 */
export function legendEntries(series: readonly ResourceSeries[]): LegendEntry[] {
  const colours = seriesColours(series);
  return series
    .map((s, i) => ({ name: resourceTitle(s.resourceName), color: colours[i] ?? '', used: used(s) }))
    .filter((entry) => entry.used)
    .map(({ name, color }) => ({ name, color }));
}

/**
 * spec A §2: a stacked area chart with zoom (inside and slider), a tooltip and a legend; one line
 * series per resource, shown by its network's display name. The legend is drawn in HTML beside the canvas
 * (chart-legend.tsx), where its entries wrap: the canvas's own legend clips or pages them on a
 * narrow chart. `hidden` names the series the user turned off in it.
 */
export function chartOption(
  labels: readonly string[],
  series: readonly ResourceSeries[],
  measure: Measure,
  hidden: ReadonlySet<string> = new Set(),
): ChartOption {
  const names = series.map((s) => resourceTitle(s.resourceName));
  return {
    aria: { enabled: true },
    color: seriesColours(series),
    tooltip: { trigger: 'axis', valueFormatter: (value) => formatValue(measure, value) },
    legend: { show: false, selected: Object.fromEntries(names.map((name) => [name, !hidden.has(name)])) },
    grid: { top: 16, left: 16, right: 24, bottom: 72 },
    xAxis: { type: 'category', boundaryGap: false, data: [...labels] },
    yAxis: { type: 'value', minInterval: measure === 'usage' ? 1 : 0 },
    dataZoom: [{ type: 'inside' }, { type: 'slider', bottom: 16 }],
    series: series.map((s, i) => ({
      name: names[i],
      type: 'line',
      stack: 'total',
      areaStyle: {},
      emphasis: { focus: 'series' },
      showSymbol: false,
      // A resource without usage in the range draws no line along the top of the others' stack.
      ...(used(s) ? {} : { lineStyle: { width: 0 } }),
      data: s.values,
    })),
  };
}
