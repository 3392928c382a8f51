import { DEPOSIT_MAX, Messages } from '@ebs/contract';
import { Card, Form } from 'antd';
import { useEffect, useState } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { amountError, toAmount } from '../../lib/amount';
import { findDefaultCard } from '../../lib/card-display';
import { depositKey, isDefiniteRefusal, type UnsettledDeposit } from '../../lib/idempotency';
import { usePaymentCards } from '../../lib/payment-cards';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useSession } from '../../session/session-store';
import { AmountInput } from './amount-input';
import { DepositConfirmModal, type PendingDeposit } from './deposit-confirm-modal';
import { NoCardModal } from './no-card-modal';

const T = Texts.billing;

interface OneTimePayFields {
  amount?: number | string | null;
}

/** Make One Time Pay (spec A §2, §4, §5): an amount, then a confirmation with the default card. */
export function OneTimePayCard({ accountId, minAmount }: { accountId: string; minAmount: number }) {
  const [form] = Form.useForm<OneTimePayFields>();
  const cards = usePaymentCards(accountId);
  const { currentAccount } = useSession();
  const [pending, setPending] = useState<PendingDeposit | null>(null);
  const [unsettled, setUnsettled] = useState<UnsettledDeposit | null>(null);
  const [noCard, setNoCard] = useState(false);

  useEffect(() => {
    if (cards.error) toast.error(cards.error);
  }, [cards.error]);

  const onFinish = ({ amount }: OneTimePayFields) => {
    const depositAmount = toAmount(amount);
    if (!depositAmount) return;
    // The session's cards stand in when the card list could not be read.
    const list = cards.data ?? (currentAccount?.id === accountId ? currentAccount.cards : []);
    if (list.length === 0) {
      setNoCard(true);
      return;
    }
    const card = findDefaultCard(list);
    if (!card) {
      toast.error(Messages.setDefaultCard);
      return;
    }
    // One key per deposit: a confirmation never charges twice, nor does trying again after a lost answer.
    setPending({ amount: depositAmount, card, idempotencyKey: depositKey(unsettled, depositAmount, card.id) });
  };

  return (
    <Card title={T.makeOneTimePay}>
      <Form<OneTimePayFields> form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          name="amount"
          label={T.amountUsd}
          rules={[
            {
              validator: (_rule, value) => {
                const error = amountError(value, minAmount, DEPOSIT_MAX);
                return error ? Promise.reject(new Error(error)) : Promise.resolve();
              },
            },
          ]}
        >
          <AmountInput />
        </Form.Item>
        <SubmitButton pending={cards.isLoading} block={false}>
          {T.pay}
        </SubmitButton>
      </Form>
      {pending && (
        <DepositConfirmModal
          accountId={accountId}
          deposit={pending}
          onClose={() => setPending(null)}
          onDeposited={() => {
            setUnsettled(null);
            form.resetFields();
          }}
          onFailed={(error) =>
            setUnsettled(
              isDefiniteRefusal(error)
                ? null
                : { amount: pending.amount, cardId: pending.card.id, key: pending.idempotencyKey },
            )
          }
        />
      )}
      {noCard && <NoCardModal accountId={accountId} />}
    </Card>
  );
}
