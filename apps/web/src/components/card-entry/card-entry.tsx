import type { SetupIntent } from '@ebs/contract';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import {
  type CardFields,
  formatCvcInput,
  formatExpiryInput,
  groupCardNumber,
  isCardNumber,
  isCvc,
  parseExpiry,
  toProcessorCard,
} from './card-input';
import { answerChallenge, confirmSetupIntent, type SetupIntentState } from './processor-client';

const T = Texts.cards;

interface CardEntryProps {
  /** The id of the form, for a submit button outside it (the dialog's Add). */
  formId: string;
  /** The setup intent to confirm; the form does nothing until it has arrived. */
  setupIntent: SetupIntent | undefined;
  /** True from the submit until the processor has answered, the challenge included. */
  onBusyChange: (busy: boolean) => void;
  /** The confirmed setup intent's payment method, to attach to the account. */
  onConfirmed: (paymentMethod: string) => void;
}

const check = (valid: (value: string | undefined) => boolean, message: string) => ({
  validator: (_rule: unknown, value: string | undefined) =>
    valid(value) ? Promise.resolve() : Promise.reject(new Error(message)),
});

/**
 * The card fields and the only code that talks to the card processor (spec A §4): it confirms the
 * setup intent with the card, shows the processor's confirmation challenge in a dialog when one is
 * asked for (no redirect), and reports the confirmed payment method.
 */
export function CardEntry({ formId, setupIntent, onBusyChange, onConfirmed }: CardEntryProps) {
  const [form] = Form.useForm<CardFields>();
  const [pending, setPending] = useState(false);
  const [challengeId, setChallengeId] = useState<string | null>(null);

  useEffect(() => {
    onBusyChange(pending || challengeId !== null);
  }, [pending, challengeId, onBusyChange]);

  const run = async (step: () => Promise<SetupIntentState>) => {
    setPending(true);
    try {
      const state = await step();
      if (state.status === 'requires_action') {
        setChallengeId(state.id);
      } else {
        setChallengeId(null);
        onConfirmed(state.payment_method);
      }
    } catch (error) {
      setChallengeId(null);
      // The processor's own message, e.g. "Your card was declined.".
      toast.error(error);
    } finally {
      setPending(false);
    }
  };

  const onFinish = (fields: CardFields) => {
    const card = toProcessorCard(fields);
    if (!setupIntent || !card || pending) return;
    void run(() => confirmSetupIntent(setupIntent, card));
  };

  const answer = (approve: boolean) => {
    if (!setupIntent || !challengeId || pending) return;
    void run(() => answerChallenge(setupIntent, challengeId, approve));
  };

  return (
    <>
      <Form<CardFields> id={formId} form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          name="number"
          label={T.cardNumber}
          normalize={groupCardNumber}
          rules={[check(isCardNumber, T.cardNumberInvalid)]}
        >
          {/* The first thing to type: the wizard's card step and the add-card dialog start here. */}
          <Input autoFocus inputMode="numeric" autoComplete="cc-number" placeholder={T.cardNumberPlaceholder} />
        </Form.Item>
        <div className="card-entry-row">
          <Form.Item
            name="expiry"
            label={T.expiry}
            normalize={formatExpiryInput}
            rules={[check((value) => parseExpiry(value) !== undefined, T.expiryInvalid)]}
          >
            <Input inputMode="numeric" autoComplete="cc-exp" placeholder={T.expiryPlaceholder} />
          </Form.Item>
          <Form.Item name="cvc" label={T.cvc} normalize={formatCvcInput} rules={[check(isCvc, T.cvcInvalid)]}>
            <Input inputMode="numeric" autoComplete="cc-csc" placeholder={T.cvc} />
          </Form.Item>
        </div>
      </Form>
      <Modal
        open={challengeId !== null}
        title={T.confirmYourCard}
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={[
          <Button key="fail" danger disabled={pending} onClick={() => answer(false)}>
            {T.fail}
          </Button>,
          <Button key="complete" type="primary" disabled={pending} onClick={() => answer(true)}>
            {T.complete}
          </Button>,
        ]}
      >
        <Typography.Paragraph>{T.bankAsksToConfirm}</Typography.Paragraph>
      </Modal>
    </>
  );
}
