import { Messages } from '@ebs/contract';
import { Form, Input, Space, Typography } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { SubmitButton } from '../../components/submit-button';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { setAuthSession } from '../../session/session-store';
import { codeRules, digitsOnly } from './form-rules';
import { identityApi } from './identity-api';
import { useConfirmSignUp } from './identity-mutations';
import { ResendCodeLink } from './resend-code-link';

/** /sign-up with state: confirm the e-mail with the 6-digit code; success signs the user in. */
export function VerificationPage({ email }: { email: string }) {
  const navigate = useNavigate();
  const confirm = useConfirmSignUp();

  const onFinish = async ({ code }: { code: string }) => {
    try {
      const { result, ...session } = await confirm.mutateAsync({ email, code });
      if (result !== 'SUCCESS') return;
      // Navigate before storing the session: storing it swaps in the signed-in router.
      await navigate(paths.root);
      setAuthSession(session);
      toast.success(Messages.welcomeNew);
    } catch (error) {
      toast.error(error);
    }
  };

  return (
    <>
      <Typography.Title level={2}>{Texts.emailValidation}</Typography.Title>
      <Typography.Paragraph>
        {Messages.verificationCodeSent} {Texts.codeWentTo} <Typography.Text strong>{email}</Typography.Text>.
      </Typography.Paragraph>
      <Form<{ code: string }> name="verification" layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item label={Texts.verificationCode} name="code" normalize={digitsOnly} rules={codeRules}>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
        <SubmitButton pending={confirm.isPending}>{Texts.verify}</SubmitButton>
      </Form>
      <Space className="auth-toggle" style={{ width: '100%', justifyContent: 'space-between' }}>
        <Link to={paths.login}>{Texts.backToLogin}</Link>
        <ResendCodeLink withCountdown onResend={() => identityApi.resendCode(email)} />
      </Space>
    </>
  );
}
