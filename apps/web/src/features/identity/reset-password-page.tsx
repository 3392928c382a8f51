import { Messages } from '@ebs/contract';
import { Form, Input, Space, Typography } from 'antd';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { SubmitButton } from '../../components/submit-button';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { codeRules, digitsOnly } from './form-rules';
import { identityApi } from './identity-api';
import { useConfirmForgotPassword } from './identity-mutations';
import { emailFrom } from './navigation-state';
import { NewPasswordFields } from './new-password-fields';
import { ResendCodeLink } from './resend-code-link';

interface ResetValues {
  password: string;
  confirmPassword: string;
  code: string;
}

/** /reset-password needs the e-mail in navigation state; without it the user starts at /forgot-password. */
export function ResetPasswordPage() {
  const email = emailFrom(useLocation().state);
  const navigate = useNavigate();
  const confirmReset = useConfirmForgotPassword();

  if (!email) return <Navigate to={paths.forgotPassword} replace />;

  const onFinish = async ({ password, code }: ResetValues) => {
    try {
      await confirmReset.mutateAsync({ email, code, newPassword: password });
      await navigate(paths.login, { state: { notice: Messages.passwordUpdated } });
    } catch (error) {
      toast.error(error);
    }
  };

  const resend = async () => {
    await identityApi.forgotPassword(email);
    toast.success(Messages.verificationCodeSent);
  };

  return (
    <>
      <Typography.Title level={2}>{Texts.resetPasswordTitle}</Typography.Title>
      <Typography.Paragraph>
        <Typography.Text strong>{email}</Typography.Text>
      </Typography.Paragraph>
      <Form<ResetValues> name="resetPassword" layout="vertical" requiredMark={false} onFinish={onFinish}>
        <NewPasswordFields name="password" label={Texts.password} requiredMessage={Messages.passwordRequired} />
        <Form.Item label={Texts.verificationCode} name="code" normalize={digitsOnly} rules={codeRules}>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
        <SubmitButton pending={confirmReset.isPending}>{Texts.reset}</SubmitButton>
      </Form>
      <Space className="auth-toggle" style={{ width: '100%', justifyContent: 'space-between' }}>
        <Link to={paths.login}>{Texts.backToLogin}</Link>
        <ResendCodeLink onResend={resend} />
      </Space>
    </>
  );
}
