import { Card, Table, type TableProps, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { tableLocale } from '../../components/load-state';
import { accountPath } from '../../config/paths';
import { type AnalyticsRange, type NetworkDeliveries, useWebhookDeliveries } from './insight-queries';
import { InsightTexts as T } from './insight-texts';

const columns: TableProps<NetworkDeliveries>['columns'] = [
  { title: T.network, dataIndex: 'network', key: 'network' },
  {
    title: T.deliveries,
    dataIndex: 'deliveries',
    key: 'deliveries',
    align: 'right',
    render: (n: number) => n.toLocaleString('en-US'),
  },
];

/**
 * The address-activity webhooks' deliveries per network in the page's range: each delivery is one
 * unit of its network's NOTIFY_ resource, so the figures are the usage records', counted per UTC day.
 */
export function WebhookDeliveriesCard({ accountId, range }: { accountId: string; range: AnalyticsRange }) {
  const deliveries = useWebhookDeliveries(accountId, range);
  return (
    <Card title={T.webhookDeliveries} className="insight-card" data-testid="webhook-deliveries-usage">
      <Typography.Paragraph type="secondary" className="insight-hint">
        {T.webhookDeliveriesHint} <Link to={accountPath(accountId, 'webhooks')}>{T.webhooksLink}</Link>
      </Typography.Paragraph>
      <Table<NetworkDeliveries>
        rowKey="resource"
        size="small"
        columns={columns}
        dataSource={deliveries.data ?? []}
        loading={deliveries.isFetching}
        pagination={false}
        locale={tableLocale({
          loading: deliveries.isLoading,
          hint: T.noWebhookDeliveries,
          failure: {
            error: deliveries.error,
            onRetry: () => void deliveries.refetch(),
            retrying: deliveries.isFetching,
          },
        })}
      />
    </Card>
  );
}
