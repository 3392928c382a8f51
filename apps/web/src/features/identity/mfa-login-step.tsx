import { IdentityErrors, Messages } from '@ebs/contract';
import { Button, Flex, Form, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { SubmitButton } from '../../components/submit-button';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { cancelMfaLogin, type MfaUser, setAuthSession } from '../../session/session-store';
import { useAnswerMfaChallenge } from './identity-mutations';
import { SecondFactorField } from './second-factor-field';

/** A challenge that can no longer be answered (expired, used, too many codes): sign in again. */
const challengeEnded = (error: unknown) =>
  error instanceof ApiError && error.code === IdentityErrors.mfaChallengeExpired.error;

/** The login's second step: the code of the authenticator app (or a recovery code) for `user`. */
export function MfaLoginStep({ user }: { user: MfaUser }) {
  const navigate = useNavigate();
  const answer = useAnswerMfaChallenge();
  const [form] = Form.useForm<{ code: string }>();
  const [recovery, setRecovery] = useState(false);

  const onFinish = async ({ code }: { code: string }) => {
    try {
      const session = await answer.mutateAsync({ session: user.session, code });
      // Navigate before storing the session: storing it swaps in the signed-in router.
      await navigate(paths.root);
      setAuthSession(session);
      toast.success(Messages.welcome);
    } catch (error) {
      toast.error(error);
      if (challengeEnded(error)) cancelMfaLogin();
      else form.resetFields();
    }
  };

  const toggle = () => {
    form.resetFields();
    setRecovery(!recovery);
  };

  return (
    <Form<{ code: string }> form={form} name="mfaLogin" layout="vertical" requiredMark={false} onFinish={onFinish}>
      <Typography.Title level={4}>{Texts.twoFactor.title}</Typography.Title>
      <Typography.Paragraph>
        {recovery ? Texts.twoFactor.loginRecoveryIntro : Texts.twoFactor.loginIntro}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{user.email}</Typography.Paragraph>
      <SecondFactorField recovery={recovery} />
      <SubmitButton pending={answer.isPending}>{Texts.twoFactor.verify}</SubmitButton>
      <Flex justify="space-between" wrap>
        <Button type="link" onClick={toggle}>
          {recovery ? Texts.twoFactor.useAuthenticatorApp : Texts.twoFactor.useRecoveryCode}
        </Button>
        <Button type="link" onClick={cancelMfaLogin}>
          {Texts.backToLogin}
        </Button>
      </Flex>
    </Form>
  );
}
