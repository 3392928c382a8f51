import { Messages, normalizeEmail } from '@ebs/contract';
import { Form, Input, Typography } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { SubmitButton } from '../../components/submit-button';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { emailRules } from './form-rules';
import { useForgotPassword } from './identity-mutations';

export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const forgotPassword = useForgotPassword();

  const onFinish = async ({ email }: { email: string }) => {
    try {
      await forgotPassword.mutateAsync(email);
      await navigate(paths.resetPassword, { state: { email } });
    } catch (error) {
      toast.error(error);
    }
  };

  return (
    <>
      <Typography.Title level={2}>{Texts.forgotPasswordTitle}</Typography.Title>
      <Form<{ email: string }> name="forgotPassword" layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          label={Texts.email}
          name="email"
          normalize={normalizeEmail}
          rules={emailRules(Messages.forgotEmailRequired)}
        >
          <Input autoComplete="email" inputMode="email" />
        </Form.Item>
        <SubmitButton pending={forgotPassword.isPending}>{Texts.sendRequest}</SubmitButton>
      </Form>
      <div className="auth-toggle">
        <Link to={paths.login}>{Texts.backToLogin}</Link>
      </div>
    </>
  );
}
