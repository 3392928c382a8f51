import { isValidAccountName, Messages } from '@ebs/contract';
import { Button, Card, Checkbox, Form, Input, Result, Space, Steps, Typography } from 'antd';
import { useCallback, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ProviderCardEntry } from '../../components/card-entry/provider-card-entry';
import { useSetupIntent } from '../../components/card-entry/setup-intent';
import { lazyDialog } from '../../components/lazy-dialog';
import { paths } from '../../config/paths';
import { newIdempotencyKey } from '../../lib/idempotency';
import { useSetting } from '../../lib/settings';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useFreshUser } from '../../session/use-fresh-user';
import { useAccountCreation } from './account-queries';

// Offered on the last step only: the key's display and its snippets load when it shows.
const FirstKey = lazyDialog(() => import('./first-key').then((m) => m.FirstKey));

const T = Texts.createAccount;

interface NameFields {
  accountName: string;
  redeemWelcomeCredit: boolean;
}

/**
 * /accounts/create (spec A §2, §4): name, then payment (a card, or Skip when a card is not
 * mandatory), then congratulations. The account is a hidden draft until the finish step names it.
 */
export function CreateAccountPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [named, setNamed] = useState<NameFields | null>(null);
  const [draftId, setDraftId] = useState('');
  const [createdId, setCreatedId] = useState('');
  const user = useFreshUser();
  const mandatory = useSetting('ADD_PAYMENT_CARD').data?.settings;
  const cardMandatory = mandatory !== undefined && 'mandatory' in mandatory && mandatory.mandatory;
  const { draft, attach, finish } = useAccountCreation();
  const offerWelcomeCredit = user.data?.bonusRedemption.welcomeCredit === false;

  const leaveWith = useCallback(
    (error: unknown) => {
      toast.error(error);
      void navigate(paths.accounts);
    },
    [navigate],
  );

  const onNamed = (fields: NameFields) => {
    setNamed({
      accountName: fields.accountName,
      redeemWelcomeCredit: offerWelcomeCredit && fields.redeemWelcomeCredit,
    });
    // One draft per user on the server: Back and Next again continue the same one.
    draft.mutate(undefined, {
      onSuccess: (account) => {
        setDraftId(account.id);
        setStep(1);
      },
      onError: leaveWith,
    });
  };

  const complete = (cardId: string | null) => {
    if (!named) return;
    finish.mutate(
      { accountId: draftId, accountName: named.accountName, redeemWelcomeCredit: named.redeemWelcomeCredit, cardId },
      {
        onSuccess: (account) => {
          toast.success(Messages.createdName(account.name));
          setCreatedId(account.id);
          setStep(2);
        },
        onError: (error) => toast.error(error),
      },
    );
  };

  const onCardConfirmed = (cardToken: string) =>
    attach.mutate(
      { accountId: draftId, cardToken },
      { onSuccess: ({ cardId }) => complete(cardId), onError: (error) => toast.error(error) },
    );

  return (
    <div className="create-account">
      <Typography.Title level={2}>{Texts.pageTitles.createAccount}</Typography.Title>
      <Steps
        current={step}
        items={[
          { title: T.accountNameStep },
          { title: T.paymentStep, description: cardMandatory ? undefined : T.optional },
          { title: T.congratulationsStep },
        ]}
      />
      <Card className="create-account-step">
        {step === 0 && (
          <NameStep
            initial={named}
            offerWelcomeCredit={offerWelcomeCredit}
            busy={draft.isPending}
            onCancel={() => navigate(paths.accounts)}
            onNext={onNamed}
          />
        )}
        {step === 1 && (
          <PaymentStep
            draftId={draftId}
            cardMandatory={cardMandatory}
            busy={attach.isPending || finish.isPending}
            onBack={() => setStep(0)}
            onSkip={() => complete(null)}
            onConfirmed={onCardConfirmed}
            onSetupFailed={leaveWith}
          />
        )}
        {step === 2 && (
          <Result
            status="success"
            title={T.congratulationsStep}
            subTitle={named && Messages.createdName(named.accountName)}
            extra={
              <Button type="primary" onClick={() => navigate(paths.accounts)}>
                {T.done}
              </Button>
            }
          >
            {createdId && <FirstKey accountId={createdId} />}
          </Result>
        )}
      </Card>
    </div>
  );
}

interface NameStepProps {
  initial: NameFields | null;
  offerWelcomeCredit: boolean;
  busy: boolean;
  onCancel: () => void;
  onNext: (fields: NameFields) => void;
}

function NameStep({ initial, offerWelcomeCredit, busy, onCancel, onNext }: NameStepProps) {
  return (
    <Form<NameFields>
      layout="vertical"
      requiredMark={false}
      initialValues={initial ?? { accountName: '', redeemWelcomeCredit: true }}
      onFinish={onNext}
    >
      <Form.Item
        name="accountName"
        label={Texts.accountName}
        extra={Messages.accountNameHint}
        rules={[
          {
            validator: (_rule, value: string | undefined) =>
              value && isValidAccountName(value)
                ? Promise.resolve()
                : Promise.reject(new Error(Messages.invalidAccountName)),
          },
        ]}
      >
        <Input autoFocus maxLength={256} />
      </Form.Item>
      {offerWelcomeCredit && (
        <Form.Item name="redeemWelcomeCredit" valuePropName="checked">
          <Checkbox>{T.welcomeCredit}</Checkbox>
        </Form.Item>
      )}
      <Space>
        <Button onClick={onCancel}>{T.cancel}</Button>
        <Button type="primary" htmlType="submit" loading={busy}>
          {T.next}
        </Button>
      </Space>
    </Form>
  );
}

interface PaymentStepProps {
  draftId: string;
  cardMandatory: boolean;
  busy: boolean;
  onBack: () => void;
  onSkip: () => void;
  onConfirmed: (cardToken: string) => void;
  onSetupFailed: (error: unknown) => void;
}

function PaymentStep({ draftId, cardMandatory, busy, onBack, onSkip, onConfirmed, onSetupFailed }: PaymentStepProps) {
  const formId = useId();
  const [opening] = useState(newIdempotencyKey);
  const intent = useSetupIntent(draftId, opening);
  const [confirming, setConfirming] = useState(false);
  const [providerReady, setProviderReady] = useState(false);
  const working = busy || confirming;

  useEffect(() => {
    if (intent.error) onSetupFailed(intent.error);
  }, [intent.error, onSetupFailed]);

  return (
    <>
      <Typography.Paragraph type="secondary">{T.paymentHint}</Typography.Paragraph>
      <ProviderCardEntry
        formId={formId}
        setupIntent={intent.data}
        onBusyChange={setConfirming}
        onConfirmed={onConfirmed}
        onReadyChange={setProviderReady}
      />
      <Typography.Paragraph type="secondary">{Texts.cards.chargeNote}</Typography.Paragraph>
      <Space>
        <Button onClick={onBack} disabled={working}>
          {T.back}
        </Button>
        {!cardMandatory && (
          <Button onClick={onSkip} disabled={working}>
            {T.skip}
          </Button>
        )}
        <Button
          type="primary"
          htmlType="submit"
          form={formId}
          disabled={!intent.data || !providerReady || working}
          loading={busy}
        >
          {T.create}
        </Button>
      </Space>
    </>
  );
}
