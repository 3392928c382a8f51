import { displayResourceName } from '@ebs/contract';
import type { LineSeriesOption } from 'echarts/charts';
import type {
  AriaComponentOption,
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { Texts } from '../../lib/texts';
import type { Measure, ResourceSeries } from './usage-sums';

export type ChartOption = ComposeOption<
  | LineSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
  | AriaComponentOption
>;

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
 * spec A §2: a stacked area chart with zoom (inside and slider), a tooltip and a legend; one line
 * series per resource, shown by its display name.
 */
export function chartOption(
  labels: readonly string[],
  series: readonly ResourceSeries[],
  measure: Measure,
): ChartOption {
  return {
    aria: { enabled: true },
    tooltip: { trigger: 'axis', valueFormatter: (value) => formatValue(measure, value) },
    legend: { type: 'scroll', top: 0 },
    grid: { top: 48, left: 16, right: 24, bottom: 72 },
    xAxis: { type: 'category', boundaryGap: false, data: [...labels] },
    yAxis: { type: 'value', minInterval: measure === 'usage' ? 1 : 0 },
    dataZoom: [{ type: 'inside' }, { type: 'slider', bottom: 16 }],
    series: series.map((s) => ({
      name: displayResourceName(s.resourceName),
      type: 'line',
      stack: 'total',
      areaStyle: {},
      emphasis: { focus: 'series' },
      showSymbol: false,
      data: s.values,
    })),
  };
}
