import { ArrowLeftOutlined } from '@ant-design/icons';
import type { NotifyTestResult } from '@ebs/contract';
import { Button, Card, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { lazyDialog } from '../../components/lazy-dialog';
import { LoadFailed } from '../../components/load-state';
import { accountPath } from '../../config/paths';
import { errorText } from '../../lib/error-text';
import { toast } from '../../lib/toast';
import { AddressesCard } from './addresses-card';
import { DeliveriesCard } from './deliveries-card';
import { WebhookDetails } from './webhook-details';
import { WebhookStatusTag } from './webhook-tags';
import { useTestWebhook } from './webhooks-mutations';
import { useWebhook } from './webhooks-queries';
import { WebhooksTexts as T } from './webhooks-texts';
import './webhooks.css';

// Opened on demand: their Modals and Forms load on first open, not with the page.
const StatusModal = lazyDialog(() => import('./webhook-dialogs').then((m) => m.StatusModal));
const DeleteWebhookModal = lazyDialog(() => import('./webhook-dialogs').then((m) => m.DeleteWebhookModal));
const ReplayModal = lazyDialog(() => import('./webhook-dialogs').then((m) => m.ReplayModal));
const TestResultModal = lazyDialog(() => import('./webhook-dialogs').then((m) => m.TestResultModal));

type Dialog = { kind: 'status' | 'delete' | 'replay' } | { kind: 'tested'; result: NotifyTestResult };

/**
 * /account/:accountId/services/webhooks/:webhookId: one webhook's details and actions (Enable or
 * Disable, Test, Replay, Delete), its addresses, and its delivery log as it grows.
 */
export function WebhookPage() {
  const { accountId = '', webhookId = '' } = useParams();
  const navigate = useNavigate();
  const webhook = useWebhook(accountId, webhookId);
  const test = useTestWebhook(accountId, webhookId);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const toList = accountPath(accountId, 'webhooks');
  const close = () => setDialog(null);

  const back = (
    <Link to={toList} className="webhook-back">
      <ArrowLeftOutlined aria-hidden="true" /> {T.allWebhooks}
    </Link>
  );

  if (!webhook.data) {
    // Not there (deleted, or another account's): asking again would not help.
    const gone = webhook.error instanceof ApiError && webhook.error.status === 404;
    return (
      <>
        {back}
        <Card>
          {gone ? (
            <Typography.Paragraph>
              {errorText(webhook.error)} {T.notFoundHint}
            </Typography.Paragraph>
          ) : webhook.isError ? (
            <LoadFailed error={webhook.error} onRetry={() => void webhook.refetch()} retrying={webhook.isFetching} />
          ) : (
            <Skeleton active />
          )}
        </Card>
      </>
    );
  }

  const shown = webhook.data;
  const runTest = () =>
    test.mutate(undefined, {
      onSuccess: (result) => setDialog({ kind: 'tested', result }),
      onError: (error) => toast.error(error),
    });

  return (
    <>
      {back}
      <div className="page-header">
        <div className="webhook-title">
          <Typography.Title level={2}>{shown.name}</Typography.Title>
          <WebhookStatusTag status={shown.status} reason={shown.disabledReason} />
        </div>
        <div className="webhook-actions">
          <Button onClick={() => setDialog({ kind: 'status' })}>
            {shown.status === 'ENABLED' ? T.disable : T.enable}
          </Button>
          <Button disabled={test.isPending} aria-busy={test.isPending} onClick={runTest}>
            {T.test}
          </Button>
          <Button onClick={() => setDialog({ kind: 'replay' })}>{T.replay}</Button>
          <Button danger onClick={() => setDialog({ kind: 'delete' })}>
            {T.delete}
          </Button>
        </div>
      </div>
      <WebhookDetails webhook={shown} />
      <AddressesCard accountId={accountId} webhookId={webhookId} />
      <DeliveriesCard accountId={accountId} webhookId={webhookId} />
      {dialog?.kind === 'status' && <StatusModal accountId={accountId} webhook={shown} onClose={close} />}
      {dialog?.kind === 'replay' && <ReplayModal accountId={accountId} webhook={shown} onClose={close} />}
      {dialog?.kind === 'delete' && (
        <DeleteWebhookModal
          accountId={accountId}
          webhook={shown}
          onClose={close}
          onDeleted={() => void navigate(toList)}
        />
      )}
      {dialog?.kind === 'tested' && <TestResultModal result={dialog.result} onClose={close} />}
    </>
  );
}
