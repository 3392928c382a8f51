import { DEPOSIT_MAX } from '@ebs/contract';
import { Card, Form, Switch } from 'antd';
import { useEffect } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { amountError, toAmount } from '../../lib/amount';
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
      {autoDeposit && (
        <AutoPayForm key={accountId} accountId={accountId} minAmount={minAmount} autoDeposit={autoDeposit} />
      )}
    </Card>
  );
}
