import { displayResourceName, resourceLabel } from '@ebs/contract';
import type { ChartOption } from '../../components/echart';
import { Texts } from '../../lib/texts';
import type { Measure, ResourceSeries } from './usage-sums';

export type { ChartOption };

const requests = new Intl.NumberFormat('en-US');
// Prices are fractions of a cent per request: no exponent notation and no rounding away of digits.
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
 * ECharts' own palette, then its former one: the 18 resources of the billing chart each get a
 * colour of their own. Named here so the legend beside the canvas shows each series' colour.
 */
const PALETTE = [
  ...['#5070dd', '#b6d634', '#505372', '#ff994d', '#0ca8df', '#ffd10a', '#fb628b', '#785db0', '#3fbe95'],
  ...['#c23531', '#2f4554', '#61a0a8', '#d48265', '#91c7ae', '#749f83', '#ca8622', '#bda29a', '#6e7074'],
];

/** A series by the network names of the RPC page ("Ethereum Sepolia requests"), else the spec's form. */
const seriesName = (resource: string) => resourceLabel(resource) ?? displayResourceName(resource);

export interface LegendEntry {
  name: string;
  color: string;
}

/**
 * One legend entry per series that has usage in the range, in the series' order and colour: a
 * resource with nothing to show would only lengthen the legend (the billing chart has 18).
 */
export function legendEntries(series: readonly ResourceSeries[]): LegendEntry[] {
  return series
    .map((s, i) => ({
      name: seriesName(s.resourceName),
      color: PALETTE[i % PALETTE.length] ?? '',
      used: s.values.some((value) => value !== 0),
    }))
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
  const names = series.map((s) => seriesName(s.resourceName));
  return {
    aria: { enabled: true },
    color: PALETTE,
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
      ...(s.values.every((value) => value === 0) ? { lineStyle: { width: 0 } } : {}),
      data: s.values,
    })),
  };
}
