import type { PaymentCard } from '@ebs/contract';
import { Button, Modal, Tag } from 'antd';
import { CardBrand } from '../../components/card-brand';
import { formatUsdTitle } from '../../lib/amount';
import { formatExpiryLong, maskedNumber } from '../../lib/card-display';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useDeposit } from './billing-queries';

const T = Texts.billing;

export interface PendingDeposit {
  amount: number;
  card: PaymentCard;
  idempotencyKey: string;
}

interface DepositConfirmModalProps {
  accountId: string;
  deposit: PendingDeposit;
  onClose: () => void;
  onDeposited: () => void;
  /** The deposit failed; the caller keeps its key when the outcome is unknown. */
  onFailed: (error: unknown) => void;
}

/**
 * The deposit confirmation (spec A §2, §4): titled with the amount in USD, it shows the default
 * card; a failure closes it and shows the error.
 */
export function DepositConfirmModal({ accountId, deposit, onClose, onDeposited, onFailed }: DepositConfirmModalProps) {
  const { amount, card, idempotencyKey } = deposit;
  const depositing = useDeposit(accountId);

  const onDeposit = () =>
    depositing.mutate(
      { cardId: card.id, depositAmount: amount, idempotencyKey },
      {
        onSuccess: onDeposited,
        onError: (error) => {
          onFailed(error);
          toast.error(error);
        },
        onSettled: onClose,
      },
    );

  return (
    <Modal
      open
      title={formatUsdTitle(amount)}
      onCancel={onClose}
      closable={!depositing.isPending}
      maskClosable={false}
      keyboard={!depositing.isPending}
      footer={[
        <Button key="cancel" disabled={depositing.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="deposit" type="primary" disabled={depositing.isPending} onClick={onDeposit}>
          {T.deposit}
        </Button>,
      ]}
    >
      <div className="deposit-card">
        <CardBrand brand={card.card.brand} />
        <span>{maskedNumber(card.card.last4)}</span>
        <Tag color="blue">{Texts.cards.default}</Tag>
        <span>{formatExpiryLong(card.card.exp_month, card.card.exp_year)}</span>
      </div>
    </Modal>
  );
}
