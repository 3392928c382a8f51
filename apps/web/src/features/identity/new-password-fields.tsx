import { Messages } from '@ebs/contract';
import { Form, Input } from 'antd';
import { Texts } from '../../lib/texts';
import { required, sameAs, strongPassword } from './form-rules';

interface NewPasswordFieldsProps {
  /** The form field holding the new password; the confirmation is `confirmPassword`. */
  name: 'password' | 'newPassword';
  label: string;
  requiredMessage: string;
}

/** A new password under the policy, then its confirmation (Passwords do not match.). */
export function NewPasswordFields({ name, label, requiredMessage }: NewPasswordFieldsProps) {
  return (
    <>
      <Form.Item
        label={label}
        name={name}
        extra={Messages.passwordPolicy}
        rules={[required(requiredMessage), strongPassword]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={Texts.confirmPassword}
        name="confirmPassword"
        dependencies={[name]}
        rules={[required(Messages.confirmPasswordRequired), sameAs(name)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
