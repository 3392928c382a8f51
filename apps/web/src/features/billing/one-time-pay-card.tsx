import { DEPOSIT_MAX, Messages } from '@ebs/contract';
import { Alert, Card, Form } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { SubmitButton } from '../../components/submit-button';
import { accountPath } from '../../config/paths';
import { amountError, formatWholeUsd, toAmount } from '../../lib/amount';
import { brandName, findDefaultCard, maskedNumber } from '../../lib/card-display';
import { availableCredits } from '../../lib/format';
import { depositKey, isDefiniteRefusal, type UnsettledDeposit } from '../../lib/idempotency';
import { usePaymentCards } from '../../lib/payment-cards';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAccountDetails } from '../../session/account-details';
import { useSession } from '../../session/session-store';
import { AmountInput } from './amount-input';
import { DepositConfirmModal, type PendingDeposit } from './deposit-confirm-modal';
import { NoCardModal } from './no-card-modal';

const T = Texts.billing;

interface OneTimePayFields {
  amount?: number | string | null;
}

/**
 * After a deposit: what was paid and the available credit it made, read again from the account once
 * the payment has settled (the deposit answers COMPLETED, and the account is refreshed before this shows).
 */
function PaidNotice({ accountId, paid }: { accountId: string; paid: PendingDeposit }) {
  const details = useAccountDetails(accountId);
  const credit =
    details.data && !details.isFetching ? availableCredits(details.data.balance, details.data.amountPending) : null;
  const card = `${brandName(paid.card.card.brand)} ${maskedNumber(paid.card.card.last4)}`;
  return (
    <Alert
      type="success"
      showIcon
      role="status"
      className="deposit-paid"
      message={`${T.paid(formatWholeUsd(paid.amount), card)} ${credit === null ? T.creditUpdating : T.creditNow(credit)}`}
      description={<Link to={accountPath(accountId, 'billingsOverview')}>{T.seeBillingOverview}</Link>}
    />
  );
}

/** Make One Time Pay (spec A §2, §4, §5): an amount, then a confirmation with the default card. */
export function OneTimePayCard({ accountId, minAmount }: { accountId: string; minAmount: number }) {
  const [form] = Form.useForm<OneTimePayFields>();
  const cards = usePaymentCards(accountId);
  const { currentAccount } = useSession();
  const [pending, setPending] = useState<PendingDeposit | null>(null);
  const [unsettled, setUnsettled] = useState<UnsettledDeposit | null>(null);
  const [noCard, setNoCard] = useState(false);
  const [paid, setPaid] = useState<PendingDeposit | null>(null);

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
    setPaid(null);
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
            setPaid(pending);
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
      {paid && <PaidNotice accountId={accountId} paid={paid} />}
      {noCard && <NoCardModal accountId={accountId} />}
    </Card>
  );
}
