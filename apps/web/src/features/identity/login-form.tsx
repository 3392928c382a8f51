import { IdentityErrors, isMfaChallenge, Messages, normalizeEmail } from '@ebs/contract';
import { Input } from 'antd';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { fieldErrorId, PlainField } from '../../components/plain-field';
import { SubmitButton } from '../../components/submit-button';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { requestMfaLogin, setAuthSession, useSession } from '../../session/session-store';
import { identityApi } from './identity-api';
import { useSignIn } from './identity-mutations';
import { LoadingStep } from './loading-step';
import type { CredentialsState } from './navigation-state';
import { ThirdPartyButtons } from './third-party-buttons';

type LoginValues = CredentialsState;
type Field = keyof LoginValues;

const REQUIRED: Record<Field, string> = { email: Messages.emailRequired, password: Messages.passwordRequired };

/** A field's error: both are required, and blanks alone do not count. */
const errorOf = (field: Field, value: string) => (value.trim() === '' ? REQUIRED[field] : null);

/**
 * The two fields' values and errors, checked as antd's Form checks them: a field on each change,
 * both on submit. The login form does without antd's Form, which would double /login's script.
 */
function useLoginFields() {
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<Record<Field, string | null>>({ email: null, password: null });
  const change = (field: Field, value: string) => {
    setValues((now) => ({ ...now, [field]: value }));
    setErrors((now) => ({ ...now, [field]: errorOf(field, value) }));
  };
  /** Shows every field's error; answers whether the values can be sent. */
  const check = () => {
    const found = { email: errorOf('email', values.email), password: errorOf('password', values.password) };
    setErrors(found);
    return found.email === null && found.password === null;
  };
  /** What a field's control takes: its id, its error status and the error's id. */
  const controlOf = (field: Field) => {
    const id = `login_${field}`;
    const error = errors[field];
    return {
      id,
      value: values[field],
      status: error ? ('error' as const) : undefined,
      'aria-required': true,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? fieldErrorId(id) : undefined,
    };
  };
  return { values, errors, change, check, controlOf };
}

/** The second step shows only for users with two-factor sign-in: its code loads then, not with /login. */
const MfaLoginStep = lazy(() => import('./mfa-login-step').then((m) => ({ default: m.MfaLoginStep })));

export function LoginForm() {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const { mfaUser } = useSession();
  const fields = useLoginFields();

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

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (fields.check() && !signIn.isPending) void onFinish(fields.values);
  };

  if (mfaUser) {
    return (
      <Suspense fallback={<LoadingStep />}>
        <MfaLoginStep user={mfaUser} />
      </Suspense>
    );
  }

  return (
    <form id="login" className="plain-form" noValidate onSubmit={onSubmit}>
      <PlainField id="login_email" label={Texts.email} error={fields.errors.email}>
        <Input
          {...fields.controlOf('email')}
          onChange={(event) => fields.change('email', normalizeEmail(event.target.value))}
          autoComplete="email"
          inputMode="email"
        />
      </PlainField>
      <PlainField id="login_password" label={Texts.password} error={fields.errors.password}>
        <Input.Password
          {...fields.controlOf('password')}
          onChange={(event) => fields.change('password', event.target.value)}
          autoComplete="current-password"
        />
      </PlainField>
      <PlainField>
        <Link to={paths.forgotPassword}>{Texts.forgotPasswordLink}</Link>
      </PlainField>
      <SubmitButton pending={signIn.isPending}>{Texts.login}</SubmitButton>
      <ThirdPartyButtons />
    </form>
  );
}
