import type { PaymentCard } from '@ebs/contract';
import { Typography } from 'antd';
import { ConfirmRemovalModal } from '../../components/confirm-removal-modal';
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
    <ConfirmRemovalModal
      title={T.removePaymentMethod}
      cancelText={T.cancel}
      removeText={T.remove}
      pending={remove.isPending}
      onCancel={onClose}
      onRemove={onRemove}
    >
      <Typography.Paragraph>{T.removeQuestion(card.card.last4)}</Typography.Paragraph>
    </ConfirmRemovalModal>
  );
}
