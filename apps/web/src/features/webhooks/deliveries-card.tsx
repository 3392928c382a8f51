import { ReloadOutlined } from '@ant-design/icons';
import type { NotifyAttempt, NotifyDelivery } from '@ebs/contract';
import { Button, Card, Table, type TableProps, Typography } from 'antd';
import { useState } from 'react';
import { DetailRow } from '../../components/detail-row';
import { tableLocale } from '../../components/load-state';
import { shortValue } from '../../components/short-value';
import { formatDateTime } from '../../lib/format';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { readTableChange, serverPagination } from '../../lib/server-table';
import { DeliveryKindTags, DeliveryStatusTag } from './webhook-tags';
import { useDeliveries } from './webhooks-queries';
import { WebhooksTexts as T } from './webhooks-texts';

const attemptColumns: TableProps<NotifyAttempt>['columns'] = [
  { title: T.attempt, dataIndex: 'attempt', key: 'attempt', align: 'right' },
  { title: T.at, dataIndex: 'at', key: 'at', render: formatDateTime },
  {
    title: T.statusCode,
    dataIndex: 'statusCode',
    key: 'statusCode',
    render: (code: number | null) => code ?? T.noAnswer,
  },
  { title: T.duration, dataIndex: 'durationMs', key: 'durationMs', align: 'right', render: T.milliseconds },
  { title: T.error, dataIndex: 'error', key: 'error', render: (error: string | null) => error ?? '' },
];

/** An opened delivery: its message id, block hash, each attempt, and when the next one is due. */
function DeliveryAttempts({ delivery }: { delivery: NotifyDelivery }) {
  return (
    <div className="delivery-attempts">
      <DetailRow title={T.messageId} value={delivery.messageId} copyable />
      <DetailRow title={T.blockHash} value={delivery.blockHash} copyable />
      {delivery.nextAttemptAt && <DetailRow title={T.nextAttemptAt} value={formatDateTime(delivery.nextAttemptAt)} />}
      <Table<NotifyAttempt>
        rowKey="attempt"
        size="small"
        columns={attemptColumns}
        dataSource={delivery.attempts}
        pagination={false}
        locale={{ emptyText: T.noAttempts }}
      />
    </div>
  );
}

const lastStatusCode = (delivery: NotifyDelivery) => {
  const last = delivery.attempts.at(-1);
  return last ? T.httpStatus(last.statusCode) : '';
};

const columns: TableProps<NotifyDelivery>['columns'] = [
  { title: T.time, dataIndex: 'createdAt', key: 'createdAt', render: formatDateTime },
  { title: T.eventId, dataIndex: 'eventId', key: 'eventId', render: shortValue, responsive: WIDE_ONLY },
  { title: T.block, dataIndex: 'blockNumber', key: 'blockNumber', align: 'right', responsive: WIDE_ONLY },
  {
    title: T.kind,
    key: 'kind',
    responsive: WIDE_ONLY,
    render: (_value, delivery) => <DeliveryKindTags delivery={delivery} />,
  },
  { title: T.activity, dataIndex: 'activityCount', key: 'activityCount', align: 'right', responsive: WIDE_ONLY },
  {
    title: T.status,
    dataIndex: 'status',
    key: 'status',
    render: (status: NotifyDelivery['status']) => <DeliveryStatusTag status={status} />,
  },
  { title: T.lastHttpStatus, key: 'lastHttpStatus', render: (_value, delivery) => lastStatusCode(delivery) },
];

/**
 * The delivery log, 10 a page: each message with its kind and state, opened (the row's expand
 * button) to its attempts. It is asked again every few seconds, so new deliveries appear by themselves.
 */
export function DeliveriesCard({ accountId, webhookId }: { accountId: string; webhookId: string }) {
  const [page, setPage] = useState(1);
  const deliveries = useDeliveries(accountId, webhookId, page);
  const scroll = useTableScroll();

  return (
    <Card
      title={T.deliveries}
      className="webhook-card"
      data-testid="webhook-deliveries"
      extra={
        // Never disabled: the refresh every few seconds would take the focus off it.
        <Button icon={<ReloadOutlined aria-hidden="true" />} onClick={() => void deliveries.refetch()}>
          {T.refresh}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{T.refreshHint}</Typography.Paragraph>
      <Table<NotifyDelivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={deliveries.data?.deliveries}
        // The background refreshes do not blank the table: only a load the user asked for shows.
        loading={deliveries.isLoading || (deliveries.isPlaceholderData && deliveries.isFetching)}
        expandable={{
          // The expand buttons' column is named for screen readers: an empty header reads as nothing.
          columnTitle: <span className="webhook-hidden-title">{T.attempts}</span>,
          expandedRowRender: (delivery) => <DeliveryAttempts delivery={delivery} />,
        }}
        scroll={scroll}
        locale={tableLocale({
          loading: deliveries.isLoading,
          hint: T.noDeliveries,
          failure: {
            error: deliveries.error,
            onRetry: () => void deliveries.refetch(),
            retrying: deliveries.isFetching,
          },
        })}
        onChange={(...change) => setPage(readTableChange(...change).page)}
        pagination={serverPagination(page, deliveries.data?.total)}
      />
    </Card>
  );
}
