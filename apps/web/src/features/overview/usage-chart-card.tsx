import { Card, Spin } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useMemo, useState } from 'react';
import { LoadFailed } from '../../components/load-state';
import { Texts } from '../../lib/texts';
import { ChartLegend } from './chart-legend';
import { chartOption, legendEntries } from './chart-option';
import { DateRangePicker } from './date-range-picker';
import { axisLabels, type DayRange, DEFAULT_RANGE_DAYS, daysOf, lastDays, toBounds } from './overview-dates';
import { useErrorToast, useUsageRecords } from './overview-queries';
import { dailySeries, type Measure } from './usage-sums';

interface Props {
  title: string;
  accountId: string;
  /** The resources to chart; undefined until the list is known. */
  resources: readonly string[] | undefined;
  measure: Measure;
  today: Dayjs;
}

// ECharts is a chunk of its own, asked for as soon as this route's chunk runs: the cards and the
// pickers do not wait for it, and no other route loads it.
const echartModule = import('../../components/echart');
const EChart = lazy(() => echartModule.then((m) => ({ default: m.EChart })));

function ChartLoading() {
  return (
    <div className="overview-chart overview-chart-loading" role="status" aria-label={Texts.loading}>
      <Spin />
    </div>
  );
}

/**
 * One overview chart (spec A §2): its own date range (the last 7 days by default), every day of the
 * range on the axis, one stacked area per resource. Loading until the resources are known and while
 * its records load.
 */
export function UsageChartCard({ title, accountId, resources, measure, today }: Props) {
  const [range, setRange] = useState<DayRange>(() => lastDays(DEFAULT_RANGE_DAYS, today));
  const bounds = useMemo(() => toBounds(range), [range]);
  const records = useUsageRecords(accountId, bounds, resources);
  useErrorToast(records.error);

  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (name: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (!next.delete(name)) next.add(name);
      return next;
    });

  const data = records.data;
  const chart = useMemo(() => {
    if (!data) return undefined;
    const days = daysOf(data.range);
    const series = dailySeries(data.records, data.resources, days, measure);
    return { labels: axisLabels(data.range, days), series, legend: legendEntries(series) };
  }, [data, measure]);
  const option = useMemo(
    () => chart && chartOption(chart.labels, chart.series, measure, hidden),
    [chart, measure, hidden],
  );

  let body = <ChartLoading />;
  if (records.isError) {
    body = (
      <div className="overview-chart overview-chart-loading">
        <LoadFailed error={records.error} onRetry={() => void records.refetch()} retrying={records.isFetching} />
      </div>
    );
  } else if (chart && option) {
    body = (
      <Suspense fallback={<ChartLoading />}>
        <Spin spinning={records.isFetching}>
          <ChartLegend accountId={accountId} entries={chart.legend} hidden={hidden} onToggle={toggle} />
          <EChart option={option} className="overview-chart" />
        </Spin>
      </Suspense>
    );
  }

  return (
    <Card
      title={title}
      className="overview-chart-card"
      extra={<DateRangePicker value={range} onChange={setRange} today={today} />}
    >
      {body}
    </Card>
  );
}
