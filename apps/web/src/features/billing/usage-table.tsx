import { displayResourceName, type ResourceUsageRecord } from '@ebs/contract';
import { Table, type TableProps, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useUsageResourceNames } from '../../api/usage-queries';
import { ExportButton } from '../../components/export-button';
import { tableLocale } from '../../components/load-state';
import { formatTableAmount } from '../../lib/format';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { antdSortOrder, readTableChange, serverPagination } from '../../lib/server-table';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { exportUsage, type UsageParams, useUsage } from './usage-queries';

const T = Texts.billing;

const statusColors: Record<string, string> = { BILLED: 'green', PENDING: 'gold' };

/** Service Usage History (spec A §2): filtered by resource, sorted by date and paged on the server, 10 per page. */
export function UsageTable({ accountId }: { accountId: string }) {
  const [params, setParams] = useState<UsageParams>({ page: 1, order: 'desc' });
  const { data, isFetching, error, refetch } = useUsage(accountId, params);
  const scroll = useTableScroll();
  const resourceNames = useUsageResourceNames(accountId) ?? [];

  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);

  const columns: TableProps<ResourceUsageRecord>['columns'] = [
    {
      title: T.resourceName,
      dataIndex: 'resourceName',
      key: 'resourceName',
      filters: resourceNames.map((name) => ({ text: displayResourceName(name), value: name })),
      filterSearch: true,
      filteredValue: params.resourceNames ?? null,
      render: (name: string) => displayResourceName(name),
    },
    {
      title: T.usage,
      dataIndex: 'usage',
      key: 'usage',
      responsive: WIDE_ONLY,
      align: 'right',
      render: (usage: number) => usage.toLocaleString('en-US'),
    },
    {
      // ours: what the calls cost in compute units; token forwards are priced per forward, not in units.
      title: T.computeUnits,
      dataIndex: 'computeUnits',
      key: 'computeUnits',
      responsive: WIDE_ONLY,
      align: 'right',
      render: (units: number | null) => (units === null ? '-' : units.toLocaleString('en-US')),
    },
    {
      title: Texts.status,
      dataIndex: 'status',
      key: 'status',
      responsive: WIDE_ONLY,
      render: (status: string) => <Tag color={statusColors[status]}>{status}</Tag>,
    },
    {
      title: T.date,
      dataIndex: 'date',
      key: 'date',
      sorter: true,
      // The server always sorts by date, newest first by default: each click flips the order.
      sortOrder: antdSortOrder(params.order),
      sortDirections: ['descend', 'ascend', 'descend'],
    },
    {
      title: T.price,
      dataIndex: 'price',
      key: 'price',
      align: 'right',
      render: (price: number) => formatTableAmount(price),
    },
  ];

  const onChange: TableProps<ResourceUsageRecord>['onChange'] = (...change) => {
    const { page, order, filters } = readTableChange(...change);
    setParams({ page, resourceNames: filters.resourceName, order: order ?? 'desc' });
  };

  return (
    <>
      <div className="table-toolbar">
        <ExportButton fileName={`usage-${accountId}.csv`} load={() => exportUsage(accountId, params)} />
      </div>
      <Table<ResourceUsageRecord>
        rowKey="id"
        columns={columns}
        dataSource={data?.accountResourceUsage ?? []}
        loading={isFetching}
        locale={tableLocale({
          // A new page, sort or filter has no rows to show yet: no empty state until it answers.
          loading: isFetching && !data?.accountResourceUsage.length,
          hint: T.noUsage,
          failure: { error, onRetry: () => void refetch(), retrying: isFetching },
        })}
        onChange={onChange}
        scroll={scroll}
        pagination={serverPagination(params.page, data?.totalCount)}
      />
    </>
  );
}
