import { Messages, type MfaSetup } from '@ebs/contract';
import { Button, Flex, Form, QRCode, Typography } from 'antd';
import { CopyButton } from '../../components/copy-button';
import { SubmitButton } from '../../components/submit-button';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { setMfaEnabled } from '../../session/session-store';
import { useEnableMfa } from './identity-mutations';
import { SecondFactorField } from './second-factor-field';

interface TurnOnTwoFactorProps {
  setup: MfaSetup;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** The new secret as a QR code and as text, and the code from the app that confirms it. */
export function TurnOnTwoFactor({ setup, onEnabled, onCancel }: TurnOnTwoFactorProps) {
  const enable = useEnableMfa();
  const [form] = Form.useForm<{ code: string }>();

  const onFinish = async ({ code }: { code: string }) => {
    try {
      const { recoveryCodes = [] } = await enable.mutateAsync(code);
      setMfaEnabled(true);
      toast.success(Messages.mfaTurnedOn);
      onEnabled(recoveryCodes);
    } catch (error) {
      toast.error(error);
      form.resetFields();
    }
  };

  return (
    <Flex vertical gap="middle">
      <Typography.Paragraph>{Texts.twoFactor.scan}</Typography.Paragraph>
      <QRCode value={setup.uri} type="svg" role="img" aria-label={Texts.twoFactor.qrCode} />
      <div>
        <Typography.Text strong>{Texts.twoFactor.secretKey}</Typography.Text>
        <Flex align="center" gap="small" wrap>
          <Typography.Text code className="two-factor-secret">
            {setup.secret}
          </Typography.Text>
          <CopyButton text={setup.secret} size="small" />
        </Flex>
      </div>
      <Form<{ code: string }> form={form} name="mfaEnable" layout="vertical" requiredMark={false} onFinish={onFinish}>
        <SecondFactorField />
        <Flex gap="small">
          <SubmitButton pending={enable.isPending} block={false}>
            {Texts.twoFactor.confirm}
          </SubmitButton>
          <Button onClick={onCancel}>{Texts.twoFactor.cancel}</Button>
        </Flex>
      </Form>
    </Flex>
  );
}
