import { ANALYTICS_RANGES, type MethodStat } from '@ebs/contract';
import { Card, Col, Empty, Row, Select, Space, Spin, Table, type TableProps, Typography } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LoadFailed, tableLocale } from '../../components/load-state';
import { accountPath } from '../../config/paths';
import { networkName } from '../../lib/format';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { analyticsCharts, callsOption, errorRateOption, latencyOption } from './analytics-charts';
import { KeyFilter, NetworkFilter } from './insight-filters';
import { type AnalyticsFilter, type AnalyticsRange, useMethodSeries, useMethodStats } from './insight-queries';
import { InsightTexts as T } from './insight-texts';
import { WebhookDeliveriesCard } from './webhook-deliveries-card';
import './insight.css';

// ECharts loads with this route's chunk, lazily: the filters and the table do not wait for it.
const EChart = lazy(() => import('../../components/echart').then((m) => ({ default: m.EChart })));

const DEFAULT_RANGE = ANALYTICS_RANGES[1];

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card title={title} className="insight-card">
      {children}
    </Card>
  );
}

const rate = (m: MethodStat) => (m.calls === 0 ? 0 : m.errors / m.calls);

const columns: TableProps<MethodStat>['columns'] = [
  { title: T.method, dataIndex: 'method', key: 'method', sorter: (a, b) => a.method.localeCompare(b.method) },
  {
    // Kept on a phone too: a method's figures mean little without their network.
    title: T.network,
    dataIndex: 'network',
    key: 'network',
    render: networkName,
    sorter: (a, b) => a.network.localeCompare(b.network),
  },
  {
    title: T.calls,
    dataIndex: 'calls',
    key: 'calls',
    align: 'right',
    defaultSortOrder: 'descend',
    sorter: (a, b) => a.calls - b.calls,
    render: (n: number) => n.toLocaleString('en-US'),
  },
  {
    title: T.computeUnits,
    dataIndex: 'computeUnits',
    key: 'computeUnits',
    responsive: WIDE_ONLY,
    align: 'right',
    sorter: (a, b) => a.computeUnits - b.computeUnits,
    render: (n: number) => n.toLocaleString('en-US'),
  },
  {
    title: T.errors,
    dataIndex: 'errors',
    key: 'errors',
    align: 'right',
    sorter: (a, b) => a.errors - b.errors,
    render: (n: number) => n.toLocaleString('en-US'),
  },
  {
    title: T.errorRate,
    key: 'errorRate',
    responsive: WIDE_ONLY,
    align: 'right',
    sorter: (a, b) => rate(a) - rate(b),
    render: (_value, m) => T.percent(rate(m)),
  },
  {
    title: <span title={T.refusedHint}>{T.refused}</span>,
    dataIndex: 'refused',
    key: 'refused',
    responsive: WIDE_ONLY,
    align: 'right',
    sorter: (a, b) => a.refused - b.refused,
    render: (n: number) => n.toLocaleString('en-US'),
  },
  {
    title: T.p95Ms,
    dataIndex: 'p95Ms',
    key: 'p95Ms',
    responsive: WIDE_ONLY,
    align: 'right',
    sorter: (a, b) => a.p95Ms - b.p95Ms,
    render: (ms: number) => ms.toLocaleString('en-US', { maximumFractionDigits: 2 }),
  },
];

/**
 * /account/:accountId/services/analytics: the gateway's calls, compute units, errors and latency per method, by
 * key, network and range, in three charts and a sortable table of methods; below, the webhooks'
 * deliveries per network in the same range.
 */
export function AnalyticsPage() {
  const accountId = useParams().accountId ?? '';
  const [filter, setFilter] = useState<AnalyticsFilter>({ range: DEFAULT_RANGE });
  const methods = useMethodStats(accountId, filter);
  const series = useMethodSeries(accountId, filter);
  const scroll = useTableScroll();

  useEffect(() => {
    const error = methods.error ?? series.error;
    if (error) toast.error(error);
  }, [methods.error, series.error]);

  const charts = useMemo(() => series.data && analyticsCharts(series.data, filter.range), [series.data, filter.range]);
  const empty = series.data !== undefined && series.data.points.length === 0;

  const chart = (option: (c: NonNullable<typeof charts>) => Parameters<typeof EChart>[0]['option']) => {
    if (series.isError) {
      return <LoadFailed error={series.error} onRetry={() => void series.refetch()} retrying={series.isFetching} />;
    }
    if (!charts) {
      return (
        <div className="insight-chart insight-chart-loading">
          <Spin />
        </div>
      );
    }
    if (empty) return <Empty className="insight-chart-empty" description={T.noCalls} />;
    return (
      <Suspense fallback={<Spin />}>
        <Spin spinning={series.isFetching}>
          <EChart option={option(charts)} className="insight-chart" />
        </Spin>
      </Suspense>
    );
  };

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.analytics}</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary" className="insight-intro">
        {T.intro} <Link to={accountPath(accountId, 'requests')}>{T.requestLogLink}</Link>
      </Typography.Paragraph>
      <Space wrap className="insight-filters">
        <KeyFilter
          accountId={accountId}
          value={filter.apiKeyId}
          onChange={(apiKeyId) => setFilter({ ...filter, apiKeyId })}
        />
        <NetworkFilter value={filter.network} onChange={(network) => setFilter({ ...filter, network })} />
        <Select
          className="insight-filter"
          aria-label={T.range}
          value={filter.range.label}
          onChange={(label: string) =>
            setFilter({ ...filter, range: ANALYTICS_RANGES.find((r) => r.label === label) as AnalyticsRange })
          }
          options={ANALYTICS_RANGES.map((r) => ({ value: r.label, label: r.label }))}
        />
      </Space>
      <ChartCard title={T.callsByMethod}>{chart(callsOption)}</ChartCard>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <ChartCard title={T.errorRate}>{chart(errorRateOption)}</ChartCard>
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard title={T.latency}>{chart(latencyOption)}</ChartCard>
        </Col>
      </Row>
      <Card title={T.methods} className="insight-card">
        <Table<MethodStat>
          rowKey={(m) => `${m.network} ${m.method}`}
          columns={columns}
          dataSource={methods.data?.methods ?? []}
          loading={methods.isFetching}
          pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
          scroll={scroll}
          locale={tableLocale({
            loading: methods.isFetching && !methods.data,
            hint: T.noCalls,
            failure: { error: methods.error, onRetry: () => void methods.refetch(), retrying: methods.isFetching },
          })}
        />
      </Card>
      <WebhookDeliveriesCard accountId={accountId} range={filter.range} />
    </>
  );
}
