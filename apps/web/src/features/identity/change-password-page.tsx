import { Messages } from '@ebs/contract';
import { Card, Form, Input, Typography } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { SubmitButton } from '../../components/submit-button';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { required } from './form-rules';
import { useChangePassword } from './identity-mutations';
import { NewPasswordFields } from './new-password-fields';

interface ChangePasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function ChangePasswordPage() {
  const navigate = useNavigate();
  const changePassword = useChangePassword();

  const onFinish = async ({ oldPassword, newPassword }: ChangePasswordValues) => {
    try {
      await changePassword.mutateAsync({ oldPassword, newPassword });
      await navigate(paths.accounts);
      toast.success(Messages.passwordUpdated);
    } catch (error) {
      toast.error(error);
    }
  };

  return (
    <Card className="narrow-form">
      <Typography.Title level={2}>{Texts.changePasswordTitle}</Typography.Title>
      <Form<ChangePasswordValues> name="changePassword" layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item label={Texts.oldPassword} name="oldPassword" rules={[required(Messages.oldPasswordRequired)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields
          name="newPassword"
          label={Texts.newPassword}
          requiredMessage={Messages.newPasswordRequired}
        />
        <SubmitButton pending={changePassword.isPending} block={false}>
          {Texts.update}
        </SubmitButton>
      </Form>
      <Typography.Paragraph type="secondary">
        {Texts.twoFactorMoved} <Link to={paths.security}>{Texts.securityTitle}</Link> page.
      </Typography.Paragraph>
    </Card>
  );
}
