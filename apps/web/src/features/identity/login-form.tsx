import { IdentityErrors, isMfaChallenge, Messages, normalizeEmail } from '@ebs/contract';
import { Form, Input, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { paths } from '../../app/paths';
import { SubmitButton } from '../../components/submit-button';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { requestMfaLogin, setAuthSession, useSession } from '../../session/session-store';
import { required } from './form-rules';
import { identityApi } from './identity-api';
import { useSignIn } from './identity-mutations';
import type { CredentialsState } from './navigation-state';
import { ThirdPartyButtons } from './third-party-buttons';

type LoginValues = CredentialsState;

/** The second step shows only for users with two-factor sign-in: its code loads then, not with /login. */
const MfaLoginStep = lazy(() => import('./mfa-login-step').then((m) => ({ default: m.MfaLoginStep })));

export function LoginForm() {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const { mfaUser } = useSession();

  const onFinish = async (values: LoginValues) => {
    try {
      const session = await signIn.mutateAsync(values);
      if (isMfaChallenge(session)) {
        // Two-factor sign-in is on: the user waits in the session store while the code is asked.
        requestMfaLogin(values.email, session);
        return;
      }
      // Navigate before storing the session: storing it swaps in the signed-in router.
      await navigate(paths.root);
      setAuthSession(session);
      toast.success(Messages.welcome);
    } catch (error) {
      if (error instanceof ApiError && error.code === IdentityErrors.userNotConfirmed.error) {
        await identityApi.resendCode(values.email).catch((resendError: unknown) => console.error(resendError));
        await navigate(paths.signUp, { state: { email: values.email, password: values.password } });
        return;
      }
      toast.error(error);
    }
  };

  if (mfaUser) {
    return (
      <Suspense
        fallback={
          <div className="login-step-loading" role="status" aria-label={Texts.loading}>
            <Spin />
          </div>
        }
      >
        <MfaLoginStep user={mfaUser} />
      </Suspense>
    );
  }

  return (
    <Form<LoginValues> name="login" layout="vertical" requiredMark={false} onFinish={onFinish}>
      <Form.Item label={Texts.email} name="email" normalize={normalizeEmail} rules={[required(Messages.emailRequired)]}>
        <Input autoComplete="email" inputMode="email" />
      </Form.Item>
      <Form.Item label={Texts.password} name="password" rules={[required(Messages.passwordRequired)]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item>
        <Link to={paths.forgotPassword}>{Texts.forgotPasswordLink}</Link>
      </Form.Item>
      <SubmitButton pending={signIn.isPending}>{Texts.login}</SubmitButton>
      <ThirdPartyButtons />
    </Form>
  );
}
