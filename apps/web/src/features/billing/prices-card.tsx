import { displayResourceName, isForwardingResource, resourceTitle, type UsageResource } from '@ebs/contract';
import { Table, type TableProps, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useMonthlyUsage, useUsageResources } from '../../api/usage-queries';
import { formatTableAmount } from '../../lib/format';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { Texts } from '../../lib/texts';
import { unitPriceText } from '../../lib/unit-price';
import { monthToDate, type ResourceMonth } from '../../lib/usage-month';

const T = Texts.billing;
const NOTHING: ResourceMonth = { usage: 0, price: 0 };

interface PriceRow extends UsageResource, ResourceMonth {}

/**
 * The unit price of every billable resource (per compute unit of each network, per token forward) and
 * what this month has used and cost so far, posted or not; the resources used come first.
 */
export function PricesAndCost({ accountId }: { accountId: string }) {
  const [month] = useState(() => monthToDate());
  const resources = useUsageResources(accountId);
  const usage = useMonthlyUsage(accountId, month);
  const scroll = useTableScroll();

  const rows = useMemo(() => {
    const byResource = usage.data?.byResource ?? new Map<string, ResourceMonth>();
    const all = (resources.data ?? []).map((resource) => ({
      ...resource,
      ...(byResource.get(resource.resourceName) ?? NOTHING),
    }));
    return [...all.filter((row) => row.usage > 0), ...all.filter((row) => row.usage === 0)];
  }, [resources.data, usage.data]);

  const columns: TableProps<PriceRow>['columns'] = [
    {
      title: T.service,
      key: 'service',
      render: (_value, row) => (
        <>
          <div>{resourceTitle(row.resourceName)}</div>
          <Typography.Text type="secondary">{displayResourceName(row.resourceName)}</Typography.Text>
        </>
      ),
    },
    {
      title: T.unitPrice,
      key: 'unitPrice',
      align: 'right',
      responsive: WIDE_ONLY,
      render: (_value, row) =>
        `${unitPriceText(row.unitPrice)} ${isForwardingResource(row.resourceName) ? T.perForward : T.perComputeUnit}`,
    },
    {
      title: T.thisMonth,
      dataIndex: 'usage',
      key: 'usage',
      align: 'right',
      responsive: WIDE_ONLY,
      render: (count: number) => count.toLocaleString('en-US'),
    },
    {
      title: T.costThisMonth,
      dataIndex: 'price',
      key: 'price',
      align: 'right',
      render: (price: number) => formatTableAmount(price),
    },
  ];

  return (
    <>
      {usage.data && <Typography.Paragraph>{T.monthSoFar(usage.data.total, usage.data.unposted)}</Typography.Paragraph>}
      <Table<PriceRow>
        rowKey="resourceName"
        size="small"
        columns={columns}
        dataSource={rows}
        loading={resources.isLoading || usage.isLoading}
        pagination={false}
        scroll={scroll}
      />
    </>
  );
}
