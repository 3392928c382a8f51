import { NOTIFY_LIMITS, type NotifyTestResult, type NotifyWebhook } from '@ebs/contract';
import { Button, Form, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { ConfirmRemovalModal } from '../../components/confirm-removal-modal';
import { DetailRow } from '../../components/detail-row';
import { toast } from '../../lib/toast';
import { type ReplayFields, ReplayRules } from './webhook-form';
import { useDeleteWebhook, useReplay, useSetWebhookStatus } from './webhooks-mutations';
import { WebhooksTexts as T } from './webhooks-texts';

interface DialogProps {
  accountId: string;
  webhook: NotifyWebhook;
  onClose: () => void;
}

/** Enable or Disable asks first; a refusal closes it and shows the server's message. */
export function StatusModal({ accountId, webhook, onClose }: DialogProps) {
  const setStatus = useSetWebhookStatus(accountId, webhook.id);
  // As it was when asked: the answer refreshes the webhook before the dialog closes.
  const [enabling] = useState(webhook.status === 'DISABLED');
  const change = () =>
    setStatus.mutate(enabling ? 'ENABLED' : 'DISABLED', {
      onSettled: onClose,
      onError: (error) => toast.error(error),
    });
  return (
    <Modal
      open
      title={enabling ? T.enableTitle : T.disableTitle}
      onCancel={onClose}
      closable={!setStatus.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={setStatus.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="change" type="primary" danger={!enabling} disabled={setStatus.isPending} onClick={change}>
          {enabling ? T.enable : T.disable}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{enabling ? T.enableQuestion : T.disableQuestion}</Typography.Paragraph>
      <Typography.Paragraph strong>{webhook.name}</Typography.Paragraph>
    </Modal>
  );
}

/** Delete asks first; once deleted, `onDeleted` leaves the webhook's page. */
export function DeleteWebhookModal({
  accountId,
  webhook,
  onClose,
  onDeleted,
}: DialogProps & { onDeleted: () => void }) {
  const remove = useDeleteWebhook(accountId, webhook.id);
  return (
    <ConfirmRemovalModal
      title={T.deleteTitle}
      cancelText={T.cancel}
      removeText={T.delete}
      pending={remove.isPending}
      onCancel={onClose}
      onRemove={() =>
        remove.mutate(undefined, {
          onSuccess: onDeleted,
          onError: (error) => {
            toast.error(error);
            onClose();
          },
        })
      }
    >
      <Typography.Paragraph>{T.deleteQuestion}</Typography.Paragraph>
      <Typography.Paragraph strong>{webhook.name}</Typography.Paragraph>
    </ConfirmRemovalModal>
  );
}

const REPLAY_FORM = 'replayBlocks';

/** Replay: a range of blocks delivered again; the range is checked here as the server checks it, and a refusal keeps it open. */
export function ReplayModal({ accountId, webhook, onClose }: DialogProps) {
  const replay = useReplay(accountId, webhook.id);
  const onFinish = ({ fromBlock, toBlock }: ReplayFields) =>
    replay.mutate(
      { fromBlock: Number(fromBlock), toBlock: Number(toBlock) },
      { onSuccess: onClose, onError: (error) => toast.error(error) },
    );
  return (
    <Modal
      open
      title={T.replayTitle}
      onCancel={onClose}
      closable={!replay.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={replay.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="replay" type="primary" htmlType="submit" form={REPLAY_FORM} disabled={replay.isPending}>
          {T.startReplay}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{T.replayIntro(NOTIFY_LIMITS.replayBlocks)}</Typography.Paragraph>
      <Form<ReplayFields> name={REPLAY_FORM} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item name="fromBlock" label={T.fromBlock} rules={[ReplayRules.fromBlock]}>
          <InputNumber className="webhook-number" inputMode="numeric" autoFocus />
        </Form.Item>
        <Form.Item name="toBlock" label={T.toBlock} dependencies={['fromBlock']} rules={ReplayRules.toBlock}>
          <InputNumber className="webhook-number" inputMode="numeric" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** What the receiver answered to the test delivery: its status code (or none), how long it took, its body. */
export function TestResultModal({ result, onClose }: { result: NotifyTestResult; onClose: () => void }) {
  return (
    <Modal
      open
      title={T.testTitle}
      onCancel={onClose}
      footer={[
        <Button key="close" type="primary" onClick={onClose}>
          {T.close}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{T.testIntro}</Typography.Paragraph>
      <DetailRow title={T.statusCode} value={result.statusCode ?? T.noAnswer} />
      <DetailRow title={T.duration} value={T.milliseconds(result.durationMs)} />
      <div className="detail-row">
        <Typography.Text type="secondary">{T.responseBody}</Typography.Text>
        <pre className="webhook-json" data-testid="webhook-test-body">
          {result.body || T.emptyBody}
        </pre>
      </div>
    </Modal>
  );
}
