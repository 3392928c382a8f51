import { displayNetworkName, type NotifyWebhook } from '@ebs/contract';
import { Card } from 'antd';
import { DetailRow } from '../../components/detail-row';
import { formatDateTime } from '../../lib/format';
import { WebhookStatusTag } from './webhook-tags';
import { WebhooksTexts as T } from './webhooks-texts';

/** A webhook's settings and state: what it watches, where it posts, and how its deliveries go. */
export function WebhookDetails({ webhook }: { webhook: NotifyWebhook }) {
  const { lastDelivery } = webhook;
  return (
    <Card title={T.details} className="webhook-card">
      <DetailRow title={T.id} value={webhook.id} copyable />
      <DetailRow title={T.network} value={displayNetworkName(webhook.network)} />
      <DetailRow title={T.url} value={webhook.url} copyable />
      <DetailRow title={T.categories} value={webhook.categories.map((c) => T.categoryNames[c]).join(', ')} />
      <DetailRow title={T.confirmations} value={T.confirmationsText(webhook.confirmations)} />
      <DetailRow
        title={T.status}
        value={
          webhook.status === 'DISABLED'
            ? `${webhook.status}: ${T.disabledHint(webhook.disabledReason)}`
            : webhook.status
        }
        display={
          <span className="webhook-title">
            <WebhookStatusTag status={webhook.status} />
            {webhook.status === 'DISABLED' && T.disabledHint(webhook.disabledReason)}
          </span>
        }
      />
      <DetailRow title={T.addresses} value={webhook.addressCount.toLocaleString('en-US')} />
      {webhook.failingSince && <DetailRow title={T.failingSince} value={formatDateTime(webhook.failingSince)} />}
      <DetailRow
        title={T.lastDelivery}
        value={
          lastDelivery
            ? `${T.lastDeliveryText(formatDateTime(lastDelivery.at), lastDelivery.statusCode)} · ${T.block} ${lastDelivery.blockNumber}`
            : T.noDeliveryYet
        }
      />
      <DetailRow title={T.createdAt} value={formatDateTime(webhook.createdAt)} />
    </Card>
  );
}
