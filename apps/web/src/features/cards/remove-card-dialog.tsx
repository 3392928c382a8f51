import type { PaymentCard } from '@ebs/contract';
import { Button, Modal, Typography } from 'antd';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useRemoveCard } from './card-queries';

const T = Texts.cards;

interface RemoveCardDialogProps {
  accountId: string;
  card: PaymentCard;
  onClose: () => void;
}

/** Remove Payment Method (spec A §2, §4): a failed removal closes the dialog and shows the error. */
export function RemoveCardDialog({ accountId, card, onClose }: RemoveCardDialogProps) {
  const remove = useRemoveCard(accountId);

  const onRemove = () => remove.mutate(card.id, { onSettled: onClose, onError: (error) => toast.error(error) });

  return (
    <Modal
      open
      title={T.removePaymentMethod}
      onCancel={onClose}
      closable={!remove.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={remove.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="remove" type="primary" danger disabled={remove.isPending} onClick={onRemove}>
          {T.remove}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{T.removeQuestion(card.card.last4)}</Typography.Paragraph>
    </Modal>
  );
}
