import { canManageAccount, Messages, type SpendingCapSetting } from '@ebs/contract';
import { Card, Descriptions, Form, type FormRule, InputNumber, Typography } from 'antd';
import { SubmitButton } from '../../components/submit-button';
import { formatUsd } from '../../lib/amount';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAccountDetails } from '../../session/account-details';
import { useUpdateSpendingCap } from './billing-queries';

const T = Texts.billing;

/** The contract takes up to 7 digits and 2 decimals; a cap must be at least a cent. */
const CAP_MIN = 0.01;
const CAP_MAX = 9_999_999.99;

const NONE: SpendingCapSetting = { monthlyCapUsd: null, autoPayMonthlyMaxUsd: null };

interface CapFields {
  monthlyCapUsd: number | null;
  autoPayMonthlyMaxUsd: number | null;
}

const toNumber = (text: string | null) => (text === null ? null : Number(text));
/** A field as the setting takes it: decimal text with 2 places, or null when left empty. */
const toText = (value: number | null | undefined) => (value === null || value === undefined ? null : value.toFixed(2));

/** An empty field is none; a value must lie within the contract's range (the server's own words). */
const rangeRule = (message: string): FormRule => ({
  validator: (_rule, value: number | null | undefined) =>
    value !== null && value !== undefined && (value < CAP_MIN || value > CAP_MAX)
      ? Promise.reject(new Error(message))
      : Promise.resolve(),
});

const RANGE_MESSAGES: Record<keyof CapFields, string> = {
  monthlyCapUsd: Messages.spendingCapRange,
  autoPayMonthlyMaxUsd: Messages.autoPayMonthlyMaxRange,
};

/** The cap and the Auto Pay limit in words: what the gateway and Auto Pay do with them. */
function SpendingCapRule({ cap }: { cap: SpendingCapSetting }) {
  const usd = (text: string) => formatUsd(Number(text));
  return (
    <Descriptions
      size="small"
      column={1}
      className="spending-cap-rule"
      items={[
        {
          key: 'monthlyCapUsd',
          label: T.capStops,
          children: cap.monthlyCapUsd === null ? T.noCap : usd(cap.monthlyCapUsd),
        },
        {
          key: 'autoPayMonthlyMaxUsd',
          label: T.capAutoPay,
          children: cap.autoPayMonthlyMaxUsd === null ? T.noLimit : T.perMonth(usd(cap.autoPayMonthlyMaxUsd)),
        },
      ]}
    />
  );
}

/** The owner's form: both fields saved together, an empty one as null. */
function SpendingCapForm({ accountId, cap }: { accountId: string; cap: SpendingCapSetting }) {
  const save = useUpdateSpendingCap(accountId);

  const onFinish = (fields: CapFields) =>
    save.mutate(
      { monthlyCapUsd: toText(fields.monthlyCapUsd), autoPayMonthlyMaxUsd: toText(fields.autoPayMonthlyMaxUsd) },
      {
        onSuccess: ({ message }) => toast.success(message || Messages.spendingCapSaved),
        onError: (error) => toast.error(error),
      },
    );

  const field = (name: keyof CapFields, label: string, empty: string) => (
    <Form.Item name={name} label={label} extra={empty} rules={[rangeRule(RANGE_MESSAGES[name])]}>
      {/* No min or max here: the box would keep an out-of-range number on screen while the form
          saved the last one in range; the rule names it instead. */}
      <InputNumber<number>
        precision={2}
        step={1}
        prefix="$"
        placeholder={empty === T.capEmpty ? T.noCap : T.noLimit}
        style={{ width: '100%' }}
      />
    </Form.Item>
  );

  return (
    <Form<CapFields>
      layout="vertical"
      requiredMark={false}
      initialValues={{
        monthlyCapUsd: toNumber(cap.monthlyCapUsd),
        autoPayMonthlyMaxUsd: toNumber(cap.autoPayMonthlyMaxUsd),
      }}
      onFinish={onFinish}
    >
      {field('monthlyCapUsd', T.monthlyCapUsd, T.capEmpty)}
      {field('autoPayMonthlyMaxUsd', T.autoPayMonthlyMaxUsd, T.limitEmpty)}
      <SubmitButton pending={save.isPending} block={false}>
        {T.saveSpendingCap}
      </SubmitButton>
    </Form>
  );
}

/**
 * The spending cap: the month's RPC usage at which the gateway stops the account's calls, and the
 * most Auto Pay deposits a month. The owner changes them; members read them.
 */
export function SpendingCapCard({ accountId }: { accountId: string }) {
  const details = useAccountDetails(accountId);
  const account = details.data;
  const cap = account ? (account.setting.spendingCap ?? NONE) : undefined;

  return (
    <Card title={T.spendingCap} loading={details.isLoading}>
      {cap && (
        <>
          <Typography.Paragraph type="secondary">{T.capIntro}</Typography.Paragraph>
          <SpendingCapRule cap={cap} />
          {canManageAccount(account?.roleName) ? (
            <SpendingCapForm key={accountId} accountId={accountId} cap={cap} />
          ) : (
            <Typography.Paragraph type="secondary">{Messages.ownerOnlySpendingCap}</Typography.Paragraph>
          )}
        </>
      )}
    </Card>
  );
}
