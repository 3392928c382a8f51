import { Messages } from '@ebs/contract';
import { Button, Flex, Form, Typography } from 'antd';
import { useState } from 'react';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { setMfaEnabled } from '../../session/session-store';
import { useDisableMfa } from './identity-mutations';
import { SecondFactorField } from './second-factor-field';

/** Turning two-factor sign-in off takes a current code from the app, or a recovery code. */
export function TurnOffTwoFactor({ onDone }: { onDone: () => void }) {
  const disable = useDisableMfa();
  const [form] = Form.useForm<{ code: string }>();
  const [recovery, setRecovery] = useState(false);

  const onFinish = async ({ code }: { code: string }) => {
    try {
      await disable.mutateAsync(code);
      setMfaEnabled(false);
      toast.success(Messages.mfaTurnedOff);
      onDone();
    } catch (error) {
      toast.error(error);
      form.resetFields();
    }
  };

  const toggle = () => {
    form.resetFields();
    setRecovery(!recovery);
  };

  return (
    <Form<{ code: string }> form={form} name="mfaDisable" layout="vertical" requiredMark={false} onFinish={onFinish}>
      <Typography.Paragraph>{Texts.twoFactor.turnOffIntro}</Typography.Paragraph>
      <SecondFactorField recovery={recovery} />
      <Flex gap="small" wrap>
        <Button danger type="primary" htmlType="submit" disabled={disable.isPending}>
          {Texts.twoFactor.turnOff}
        </Button>
        <Button onClick={onDone}>{Texts.twoFactor.cancel}</Button>
        <Button type="link" onClick={toggle}>
          {recovery ? Texts.twoFactor.useAuthenticatorApp : Texts.twoFactor.useRecoveryCode}
        </Button>
      </Flex>
    </Form>
  );
}
