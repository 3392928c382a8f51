import type { MfaSetup } from '@ebs/contract';
import { Button, Card, Flex, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useSession } from '../../session/session-store';
import { useFreshUser } from '../../session/use-fresh-user';
import { useSetUpMfa } from './identity-mutations';
import { RecoveryCodes } from './recovery-codes';
import { TurnOffTwoFactor } from './turn-off-two-factor';
import { TurnOnTwoFactor } from './turn-on-two-factor';

type Step =
  | { name: 'status' }
  | { name: 'turnOn'; setup: MfaSetup }
  | { name: 'codes'; codes: string[] }
  | { name: 'turnOff' };

/** The Two-factor sign-in section of the Change password page: status, turn on, turn off. */
export function TwoFactorCard() {
  const userInfo = useFreshUser();
  const { mfaEnabled } = useSession();
  const setUp = useSetUpMfa();
  const [step, setStep] = useState<Step>({ name: 'status' });
  const toStatus = () => setStep({ name: 'status' });

  const turnOn = async () => {
    try {
      setStep({ name: 'turnOn', setup: await setUp.mutateAsync() });
    } catch (error) {
      toast.error(error);
    }
  };

  const loading = userInfo.isPending;
  return (
    <Card className="narrow-form">
      <Typography.Title level={2}>{Texts.twoFactor.title}</Typography.Title>
      <Typography.Paragraph type="secondary">{Texts.twoFactor.about}</Typography.Paragraph>
      {loading ? (
        <Spin />
      ) : (
        <Flex vertical gap="middle">
          <Flex align="center" gap="small">
            <Typography.Text>{Texts.twoFactor.status}:</Typography.Text>
            <Tag color={mfaEnabled ? 'green' : 'default'}>{mfaEnabled ? Texts.twoFactor.on : Texts.twoFactor.off}</Tag>
          </Flex>
          {step.name === 'turnOn' && (
            <TurnOnTwoFactor
              setup={step.setup}
              onEnabled={(codes) => setStep({ name: 'codes', codes })}
              onCancel={toStatus}
            />
          )}
          {step.name === 'codes' && <RecoveryCodes codes={step.codes} onDone={toStatus} />}
          {step.name === 'turnOff' && <TurnOffTwoFactor onDone={toStatus} />}
          {step.name === 'status' && (
            <div>
              {mfaEnabled ? (
                <Button danger onClick={() => setStep({ name: 'turnOff' })}>
                  {Texts.twoFactor.turnOff}
                </Button>
              ) : (
                <Button type="primary" onClick={turnOn} disabled={setUp.isPending}>
                  {Texts.twoFactor.turnOn}
                </Button>
              )}
            </div>
          )}
        </Flex>
      )}
    </Card>
  );
}
