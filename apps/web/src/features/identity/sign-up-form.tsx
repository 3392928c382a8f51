import { Messages, normalizeEmail } from '@ebs/contract';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SubmitButton } from '../../components/submit-button';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { emailRules, required } from './form-rules';
import { identityApi } from './identity-api';
import { useSignUp } from './identity-mutations';
import { NewPasswordFields } from './new-password-fields';

interface SignUpValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  referralCode?: string;
}

export function SignUpForm() {
  const [form] = Form.useForm<SignUpValues>();
  const navigate = useNavigate();
  const signUp = useSignUp();
  const [checkingCode, setCheckingCode] = useState(false);

  const referralCodeExists = async (referralCode: string) => {
    setCheckingCode(true);
    try {
      return (await identityApi.checkReferralCode(referralCode)).isValidCode;
    } finally {
      setCheckingCode(false);
    }
  };

  const onFinish = async (values: SignUpValues) => {
    const referralCode = values.referralCode?.trim() ?? '';
    try {
      if (referralCode && !(await referralCodeExists(referralCode))) {
        form.setFields([{ name: 'referralCode', errors: [Messages.referralCodeDoesNotExist] }]);
        return;
      }
      await signUp.mutateAsync({
        email: values.email,
        password: values.password,
        passwordConfirm: values.confirmPassword,
        givenName: values.firstName.trim(),
        familyName: values.lastName.trim(),
        ...(referralCode ? { referralCode } : {}),
        botCheckToken: null,
      });
      await navigate(paths.signUp, { state: { email: values.email, password: values.password } });
    } catch (error) {
      toast.error(error);
    }
  };

  return (
    <Form<SignUpValues> form={form} name="signUp" layout="vertical" requiredMark={false} onFinish={onFinish}>
      <Form.Item label={Texts.firstName} name="firstName" rules={[required(Messages.firstNameRequired)]}>
        <Input autoComplete="given-name" />
      </Form.Item>
      <Form.Item label={Texts.lastName} name="lastName" rules={[required(Messages.lastNameRequired)]}>
        <Input autoComplete="family-name" />
      </Form.Item>
      <Form.Item label={Texts.email} name="email" normalize={normalizeEmail} rules={emailRules(Messages.emailRequired)}>
        <Input autoComplete="email" inputMode="email" />
      </Form.Item>
      <NewPasswordFields name="password" label={Texts.password} requiredMessage={Messages.passwordRequired} />
      <Form.Item label={Texts.referralCode} name="referralCode">
        <Input autoComplete="off" onChange={() => form.setFields([{ name: 'referralCode', errors: [] }])} />
      </Form.Item>
      <SubmitButton pending={checkingCode || signUp.isPending}>{Texts.signUp}</SubmitButton>
    </Form>
  );
}
