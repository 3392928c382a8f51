import { displayNetworkName, NOTIFY_CATEGORIES, NOTIFY_LIMITS, NOTIFY_NETWORKS } from '@ebs/contract';
import { Button, Checkbox, Form, Input, InputNumber, Modal, Progress, Select, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { webhookPath } from '../../config/paths';
import { toast } from '../../lib/toast';
import { AddressesInput } from './addresses-input';
import { createBody, INITIAL_FIELDS, Rules, type WebhookFields } from './webhook-form';
import { type Progress as Sent, useCreateWebhook } from './webhooks-mutations';
import { WebhooksTexts as T } from './webhooks-texts';

/** The form's name: antd makes it the form's id (the footer's Create submits it) and each field's id prefix. */
const FORM = 'createWebhook';

const networkOptions = NOTIFY_NETWORKS.map((value) => ({ value, label: displayNetworkName(value) }));
const categoryOptions = NOTIFY_CATEGORIES.map((value) => ({ value, label: T.categoryNames[value] }));

/** How far the addresses have gone, while more than one call's worth of them is sent. */
function SendingAddresses({ sent, total }: Sent) {
  return (
    <div className="webhook-progress">
      <Typography.Text role="status">{T.sendingAddresses(sent, total)}</Typography.Text>
      <Progress percent={Math.floor((sent / total) * 100)} aria-label={T.sendingAddressesLabel} />
    </div>
  );
}

/**
 * Create webhook: its name, network, URL, categories (all four to start with), confirmations and
 * addresses. The form checks what the server would refuse, in its words; the server still decides,
 * and a refusal keeps the dialog open with its message. Made, the webhook's page opens.
 */
export function CreateWebhookModal({ accountId, onClose }: { accountId: string; onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateWebhook(accountId);
  const [sent, setSent] = useState<Sent | null>(null);

  const onFinish = (fields: WebhookFields) =>
    create.mutate(
      { body: createBody(fields), onProgress: setSent },
      {
        onSuccess: ({ webhook }) => void navigate(webhookPath(accountId, webhook.id)),
        onError: (error) => {
          setSent(null);
          toast.error(error);
        },
      },
    );

  return (
    <Modal
      open
      title={T.createWebhook}
      width={640}
      onCancel={onClose}
      closable={!create.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={create.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="create" type="primary" htmlType="submit" form={FORM} disabled={create.isPending}>
          {T.create}
        </Button>,
      ]}
    >
      <Form<WebhookFields>
        name={FORM}
        data-testid="webhook-create-form"
        layout="vertical"
        requiredMark={false}
        initialValues={INITIAL_FIELDS}
        disabled={create.isPending}
        onFinish={onFinish}
      >
        <Form.Item name="name" label={T.name} rules={[Rules.name]}>
          <Input maxLength={NOTIFY_LIMITS.nameLength} placeholder={T.namePlaceholder} autoFocus />
        </Form.Item>
        <Form.Item name="network" label={T.network} rules={[Rules.network]}>
          <Select options={networkOptions} />
        </Form.Item>
        <Form.Item name="url" label={T.url} rules={[Rules.url]} extra={T.urlHint}>
          <Input maxLength={NOTIFY_LIMITS.urlLength} placeholder={T.urlPlaceholder} inputMode="url" />
        </Form.Item>
        <Form.Item name="categories" label={T.categories} rules={[Rules.categories]}>
          <Checkbox.Group options={categoryOptions} />
        </Form.Item>
        <Form.Item
          name="confirmations"
          label={T.confirmations}
          rules={[Rules.confirmations]}
          extra={T.confirmationsHint}
        >
          {/* No min or max: antd would change an out-of-range number on blur; the rule names the range instead. */}
          <InputNumber className="webhook-number" inputMode="numeric" />
        </Form.Item>
        <Form.Item name="addresses" label={T.addresses} rules={[Rules.addresses]} extra={T.addressesHint}>
          <AddressesInput testId="webhook-addresses-input" />
        </Form.Item>
      </Form>
      {sent && sent.total > NOTIFY_LIMITS.addressesPerChange && <SendingAddresses {...sent} />}
    </Modal>
  );
}
