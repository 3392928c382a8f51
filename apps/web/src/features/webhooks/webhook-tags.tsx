import type { NotifyDelivery, NotifyWebhookStatus } from '@ebs/contract';
import { Tag, Tooltip } from 'antd';
import { WebhooksTexts as T } from './webhooks-texts';

interface WebhookStatusTagProps {
  status: NotifyWebhookStatus;
  /**
   * Why it is disabled, where the page does not say it beside the tag: on hover and on focus (the
   * tag can then be reached with Tab). Left out, the tag is alone.
   */
  reason?: string | null;
}

/** ENABLED (green) or DISABLED (grey), with why it is disabled as the tag's tooltip. */
export function WebhookStatusTag({ status, reason }: WebhookStatusTagProps) {
  if (status === 'ENABLED') return <Tag color="green">{status}</Tag>;
  if (reason === undefined) return <Tag>{status}</Tag>;
  return (
    <Tooltip title={T.disabledHint(reason)} trigger={['hover', 'focus']}>
      <Tag tabIndex={0}>{status}</Tag>
    </Tooltip>
  );
}

const DELIVERY_COLORS: Record<NotifyDelivery['status'], string> = {
  PENDING: 'gold',
  DELIVERED: 'green',
  FAILED: 'red',
};

export function DeliveryStatusTag({ status }: { status: NotifyDelivery['status'] }) {
  return <Tag color={DELIVERY_COLORS[status]}>{status}</Tag>;
}

/** What the message tells of: a confirmed or unconfirmed block, a removed one, a replay, a test. */
export function DeliveryKindTags({ delivery }: { delivery: NotifyDelivery }) {
  const kinds: { text: string; color?: string }[] = [
    delivery.confirmed ? { text: T.kinds.confirmed, color: 'blue' } : { text: T.kinds.unconfirmed },
    ...(delivery.removed ? [{ text: T.kinds.removed, color: 'magenta' }] : []),
    ...(delivery.replay ? [{ text: T.kinds.replay, color: 'purple' }] : []),
    ...(delivery.test ? [{ text: T.kinds.test, color: 'geekblue' }] : []),
  ];
  return (
    <span className="delivery-kinds">
      {kinds.map(({ text, color }) => (
        <Tag key={text} color={color}>
          {text}
        </Tag>
      ))}
    </span>
  );
}
