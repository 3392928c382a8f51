import { Button, Modal, Typography } from 'antd';
import { useEffect, useId, useState } from 'react';
import { ProviderCardEntry } from '../../components/card-entry/provider-card-entry';
import { useSetupIntent } from '../../components/card-entry/setup-intent';
import { newIdempotencyKey } from '../../lib/idempotency';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAttachCard } from './card-queries';

const T = Texts.cards;

interface AddCardDialogProps {
  accountId: string;
  onClose: () => void;
}

/**
 * Add Payment Method (spec A §2, §4): mounted once per opening, it creates a setup intent, keeps
 * Add disabled until that has arrived and the card provider is loaded, and attaches the payment
 * method the card entry confirms.
 */
export function AddCardDialog({ accountId, onClose }: AddCardDialogProps) {
  const formId = useId();
  const [opening] = useState(newIdempotencyKey);
  const intent = useSetupIntent(accountId, opening);
  const attach = useAttachCard(accountId);
  const [confirming, setConfirming] = useState(false);
  const [providerReady, setProviderReady] = useState(false);
  const busy = confirming || attach.isPending;

  useEffect(() => {
    if (intent.error) toast.error(intent.error);
  }, [intent.error]);

  // The setup intent is used up once confirmed, so a failed attach closes the dialog too.
  const onConfirmed = (paymentMethod: string) =>
    attach.mutate(paymentMethod, { onSettled: onClose, onError: (error) => toast.error(error) });

  return (
    <Modal
      open
      title={T.addPaymentMethod}
      onCancel={onClose}
      closable={!busy}
      maskClosable={false}
      keyboard={!busy}
      footer={[
        <Button key="cancel" disabled={busy} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button
          key="add"
          type="primary"
          htmlType="submit"
          form={formId}
          disabled={!intent.data || !providerReady || busy}
        >
          {T.add}
        </Button>,
      ]}
    >
      <ProviderCardEntry
        formId={formId}
        setupIntent={intent.data}
        onBusyChange={setConfirming}
        onConfirmed={onConfirmed}
        onReadyChange={setProviderReady}
      />
      <Typography.Paragraph type="secondary">{T.chargeNote}</Typography.Paragraph>
    </Modal>
  );
}
