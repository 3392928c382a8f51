import type { RequestLogEntry } from '@ebs/contract';
import { Checkbox, Input, Select, Space, Table, type TableProps, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { lazyDialog } from '../../components/lazy-dialog';
import { tableLocale } from '../../components/load-state';
import { accountPath } from '../../config/paths';
import { formatDateTime, networkName } from '../../lib/format';
import { openableRow } from '../../lib/openable-row';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { readTableChange, serverPagination } from '../../lib/server-table';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { KeyFilter, NetworkFilter } from './insight-filters';
import { type RequestLogParams, useRequestLog } from './insight-queries';
import { InsightTexts as T } from './insight-texts';
import { requestKind } from './request-kind';
import './insight.css';

// An opened row's details (antd's Descriptions) load when a row is first opened.
const RequestDetail = lazyDialog(() => import('./request-detail').then((m) => m.RequestDetail));

/** The statuses the gateway answers with, for the status filter. */
const STATUSES = [200, 400, 401, 403, 404, 408, 413, 429, 500, 502, 504];

const columns: TableProps<RequestLogEntry>['columns'] = [
  { title: T.time, dataIndex: 'time', key: 'time', render: (time: string) => formatDateTime(time) },
  {
    title: T.key,
    responsive: WIDE_ONLY,
    dataIndex: 'apiKeyName',
    key: 'key',
    render: (name: string) => name || T.deletedKey,
  },
  { title: T.network, responsive: WIDE_ONLY, dataIndex: 'network', key: 'network', render: networkName },
  {
    title: T.methods,
    dataIndex: 'methods',
    key: 'methods',
    render: (methods: string[]) => methods.join(', ') || '-',
  },
  {
    title: T.status,
    dataIndex: 'httpStatus',
    key: 'httpStatus',
    // Orange: refused by the gateway (the key's rules or limits); red: the nodes' errors.
    render: (status: number, entry) => (
      <Tag color={requestKind(entry).color} title={requestKind(entry).text}>
        {status}
      </Tag>
    ),
  },
  {
    title: T.errorCode,
    responsive: WIDE_ONLY,
    dataIndex: 'errorCode',
    key: 'errorCode',
    render: (code: number | null) => code ?? '-',
  },
  {
    title: T.latencyMs,
    dataIndex: 'latencyMs',
    responsive: WIDE_ONLY,
    key: 'latencyMs',
    align: 'right',
    render: (ms: number) => ms.toLocaleString('en-US', { maximumFractionDigits: 2 }),
  },
  { title: T.clientIp, responsive: WIDE_ONLY, dataIndex: 'clientIp', key: 'clientIp' },
  {
    title: T.origin,
    responsive: WIDE_ONLY,
    dataIndex: 'origin',
    key: 'origin',
    // The host alone fits a 1440 px window; the whole origin is its title and in the opened row.
    render: (origin: string | null) => (origin ? <span title={origin}>{origin.replace(/^https:\/\//, '')}</span> : '-'),
  },
];

const rowKey = (entry: RequestLogEntry) => `${entry.time} ${entry.apiKeyId} ${entry.clientIp} ${entry.latencyMs}`;

/**
 * /account/:accountId/services/requests: the request log, filtered by key, network, method, status
 * and failure, paged on the server, 10 per page, newest first. A row opens (click, Enter or Space)
 * to what the gateway answered and the request's details.
 */
export function RequestsPage() {
  const accountId = useParams().accountId ?? '';
  const [params, setParams] = useState<RequestLogParams>({ page: 1 });
  const [method, setMethod] = useState('');
  const { data, isFetching, error, refetch } = useRequestLog(accountId, params);
  const scroll = useTableScroll();
  const filter = (change: Partial<RequestLogParams>) => setParams({ ...params, ...change, page: 1 });
  const [opened, setOpened] = useState<string[]>([]);
  const toggle = (key: string) =>
    setOpened((keys) => (keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key]));

  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.requests}</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary" className="insight-intro">
        {T.requestsIntro} {T.requestsOpenHint} <Link to={accountPath(accountId, 'analytics')}>{T.analyticsLink}</Link>
      </Typography.Paragraph>
      <Space wrap className="insight-filters">
        <KeyFilter accountId={accountId} value={params.apiKeyId} onChange={(apiKeyId) => filter({ apiKeyId })} />
        <NetworkFilter value={params.network} onChange={(network) => filter({ network })} />
        <Input.Search
          className="insight-filter"
          aria-label={T.methodFilter}
          placeholder={T.methodPlaceholder}
          allowClear
          value={method}
          onChange={(event) => setMethod(event.target.value)}
          onSearch={(value) => filter({ method: value.trim() || undefined })}
        />
        <Select
          className="insight-filter"
          aria-label={T.status}
          value={params.httpStatus ?? 0}
          onChange={(status: number) => filter({ httpStatus: status || undefined })}
          options={[{ value: 0, label: T.anyStatus }, ...STATUSES.map((s) => ({ value: s, label: String(s) }))]}
        />
        <Checkbox
          checked={params.failedOnly ?? false}
          onChange={(event) => filter({ failedOnly: event.target.checked || undefined })}
        >
          {T.failedOnly}
        </Checkbox>
      </Space>
      <Table<RequestLogEntry>
        rowKey={rowKey}
        // Nine columns: the compact rows leave the Origin room at 1440 px.
        size="small"
        className="clickable-rows"
        columns={columns}
        // No column of its own: the row is the control, so the columns keep their places.
        expandable={{
          expandedRowKeys: opened,
          showExpandColumn: false,
          expandedRowRender: (entry) => <RequestDetail entry={entry} />,
        }}
        onRow={(entry) => openableRow(() => toggle(rowKey(entry)))}
        dataSource={data?.requests ?? []}
        loading={isFetching}
        scroll={scroll}
        locale={tableLocale({
          loading: isFetching && !data?.requests.length,
          hint: T.noRequests,
          failure: { error, onRetry: () => void refetch(), retrying: isFetching },
        })}
        onChange={(...change) => setParams({ ...params, page: readTableChange(...change).page })}
        pagination={serverPagination(params.page, data?.totalCount)}
      />
    </>
  );
}
