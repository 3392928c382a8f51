import { PlusOutlined } from '@ant-design/icons';
import { displayNetworkName, type NotifyWebhook } from '@ebs/contract';
import { Button, Table, type TableProps, Typography } from 'antd';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { lazyDialog } from '../../components/lazy-dialog';
import { tableLocale } from '../../components/load-state';
import { webhookPath } from '../../config/paths';
import { formatDateTime } from '../../lib/format';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { TABLE_PAGE_SIZE } from '../../lib/server-table';
import { Texts } from '../../lib/texts';
import { WebhookStatusTag } from './webhook-tags';
import { useWebhooks } from './webhooks-queries';
import { WebhooksTexts as T } from './webhooks-texts';
import './webhooks.css';

// Opened on demand: its Modal and Form load on first open, not with the page.
const CreateWebhookModal = lazyDialog(() => import('./create-webhook-modal').then((m) => m.CreateWebhookModal));

const lastDeliveryText = (webhook: NotifyWebhook) =>
  webhook.lastDelivery
    ? T.lastDeliveryText(formatDateTime(webhook.lastDelivery.at), webhook.lastDelivery.statusCode)
    : T.noDeliveryYet;

const columns = (accountId: string): TableProps<NotifyWebhook>['columns'] => [
  {
    title: T.name,
    dataIndex: 'name',
    key: 'name',
    render: (name: string, webhook) => <Link to={webhookPath(accountId, webhook.id)}>{name}</Link>,
  },
  { title: T.network, dataIndex: 'network', key: 'network', render: displayNetworkName, responsive: WIDE_ONLY },
  {
    title: T.url,
    dataIndex: 'url',
    key: 'url',
    responsive: WIDE_ONLY,
    render: (url: string) => (
      <span className="webhook-url-cell" title={url}>
        {url}
      </span>
    ),
  },
  {
    title: T.addresses,
    dataIndex: 'addressCount',
    key: 'addressCount',
    align: 'right',
    render: (n: number) => n.toLocaleString('en-US'),
  },
  {
    title: T.categories,
    dataIndex: 'categories',
    key: 'categories',
    responsive: WIDE_ONLY,
    render: (categories: NotifyWebhook['categories']) => categories.map((c) => T.categoryNames[c]).join(', '),
  },
  { title: T.confirmations, dataIndex: 'confirmations', key: 'confirmations', align: 'right', responsive: WIDE_ONLY },
  {
    title: T.status,
    dataIndex: 'status',
    key: 'status',
    render: (status: NotifyWebhook['status'], webhook) => (
      <WebhookStatusTag status={status} reason={webhook.disabledReason} />
    ),
  },
  {
    title: T.lastDelivery,
    key: 'lastDelivery',
    responsive: WIDE_ONLY,
    render: (_value, webhook) => lastDeliveryText(webhook),
  },
];

/**
 * /account/:accountId/services/webhooks: the account's address-activity webhooks, each leading to
 * its page; Create webhook opens the form.
 */
export function WebhooksPage() {
  const accountId = useParams().accountId ?? '';
  const webhooks = useWebhooks(accountId);
  const [creating, setCreating] = useState(false);
  const scroll = useTableScroll();

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.webhooks}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => setCreating(true)}>
          {T.createWebhook}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
      <Table<NotifyWebhook>
        rowKey="id"
        size="middle"
        columns={columns(accountId)}
        dataSource={webhooks.data}
        loading={webhooks.isLoading}
        pagination={{ pageSize: TABLE_PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true }}
        scroll={scroll}
        locale={tableLocale({
          loading: webhooks.isLoading,
          hint: T.noWebhooks,
          failure: { error: webhooks.error, onRetry: () => void webhooks.refetch(), retrying: webhooks.isFetching },
        })}
      />
      {creating && <CreateWebhookModal accountId={accountId} onClose={() => setCreating(false)} />}
    </>
  );
}
