import { DEPOSIT_MAX } from '@ebs/contract';
import { Card, Form, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { amountError, formatWholeUsd, toAmount } from '../../lib/amount';
import { brandName, findDefaultCard, maskedNumber } from '../../lib/card-display';
import { usePaymentCards } from '../../lib/payment-cards';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAccountDetails } from '../../session/account-details';
import { AmountInput } from './amount-input';
import { type AutoDeposit, useUpdateAutoDeposit } from './billing-queries';

const T = Texts.billing;

/** spec A §5, §9: the Auto Pay threshold is 1 to 99999 and defaults to 1. */
const MIN_THRESHOLD = 1;

interface AutoPayFields {
  minBalance?: number | string | null;
  autoDepositAmount?: number | string | null;
}

const amountRule = (min: number) => ({
  validator: (_rule: unknown, value: unknown) => {
    const error = amountError(value, min, DEPOSIT_MAX);
    return error ? Promise.reject(new Error(error)) : Promise.resolve();
  },
});

interface AutoPayFormProps {
  accountId: string;
  minAmount: number;
  autoDeposit: AutoDeposit;
}

/** The threshold and the amount, saved together by Save Auto Pay (spec A §4). */
function AutoPayForm({ accountId, minAmount, autoDeposit }: AutoPayFormProps) {
  const save = useUpdateAutoDeposit(accountId);

  const onFinish = (fields: AutoPayFields) => {
    const minBalance = toAmount(fields.minBalance);
    const autoDepositAmount = toAmount(fields.autoDepositAmount);
    if (minBalance === undefined || autoDepositAmount === undefined) return;
    save.mutate(
      { minBalance, autoDepositAmount },
      { onSuccess: () => toast.success(T.autoPaySaved), onError: (error) => toast.error(error) },
    );
  };

  return (
    <Form<AutoPayFields>
      layout="vertical"
      requiredMark={false}
      initialValues={{
        minBalance: autoDeposit.minBalance ?? MIN_THRESHOLD,
        autoDepositAmount: autoDeposit.autoDepositAmount ?? undefined,
      }}
      onFinish={onFinish}
    >
      <Form.Item name="minBalance" label={T.thresholdUsd} rules={[amountRule(MIN_THRESHOLD)]}>
        <AmountInput />
      </Form.Item>
      <Form.Item name="autoDepositAmount" label={T.amountUsd} rules={[amountRule(minAmount)]}>
        <AmountInput />
      </Form.Item>
      <SubmitButton pending={save.isPending} block={false}>
        {T.saveAutoPay}
      </SubmitButton>
    </Form>
  );
}

/**
 * Auto Pay's rule as saved, in a sentence with the card it charges ("When available credit falls
 * below $5, charge $20 to Visa •••• 4242."), and whether it is off.
 */
function AutoPayRule({ accountId, autoDeposit }: { accountId: string; autoDeposit: AutoDeposit }) {
  const cards = usePaymentCards(accountId);
  const { minBalance, autoDepositAmount, autoDepositEnabled } = autoDeposit;
  const card = findDefaultCard(cards.data ?? []);
  const cardWords = card ? `${brandName(card.card.brand)} ${maskedNumber(card.card.last4)}` : T.autoPayNoCard;
  return (
    <div className="auto-pay-rule" role="status">
      <Typography.Paragraph>
        {autoDepositAmount
          ? T.autoPayRule(formatWholeUsd(minBalance ?? MIN_THRESHOLD), formatWholeUsd(autoDepositAmount), cardWords)
          : T.autoPayNoAmount}
      </Typography.Paragraph>
      {!autoDepositEnabled && <Typography.Paragraph type="secondary">{T.autoPayOff}</Typography.Paragraph>}
    </div>
  );
}

/** Auto Pay (spec A §2, §4): the toggle is saved at once; threshold and amount by their own button. */
export function AutoPayCard({ accountId, minAmount }: { accountId: string; minAmount: number }) {
  const details = useAccountDetails(accountId);
  const toggle = useUpdateAutoDeposit(accountId);
  const autoDeposit = details.data?.setting.autoDeposit;

  useEffect(() => {
    if (details.error) toast.error(details.error);
  }, [details.error]);

  const onToggle = (autoDepositEnabled: boolean) =>
    toggle.mutate(
      { autoDepositEnabled },
      {
        onSuccess: () => toast.success(autoDepositEnabled ? T.autoPayEnabled : T.autoPayDisabled),
        onError: (error) => toast.error(error),
      },
    );

  return (
    <Card
      title={T.autoPay}
      loading={details.isLoading}
      extra={
        <Switch
          aria-label={T.autoPay}
          checked={autoDeposit?.autoDepositEnabled ?? false}
          disabled={!autoDeposit || toggle.isPending}
          onChange={onToggle}
        />
      }
    >
      {autoDeposit && <AutoPayRule accountId={accountId} autoDeposit={autoDeposit} />}
      {autoDeposit && (
        <AutoPayForm key={accountId} accountId={accountId} minAmount={minAmount} autoDeposit={autoDeposit} />
      )}
    </Card>
  );
}
