import { Button } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { type PlainTab, PlainTabs } from '../../components/plain-tabs';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { LoadingStep } from './loading-step';
import { LoginForm } from './login-form';
import { noticeFrom } from './navigation-state';
import { useThirdPartyMfaStep } from './third-party-mfa-step';

/** The sign-up form (antd's Form and the password rules) loads when its tab opens, not with /login. */
const SignUpForm = lazy(() => import('./sign-up-form').then((m) => ({ default: m.SignUpForm })));

// The spec's hidden Reset password tab is left out: resetting is its own route.
export type AuthTab = 'login' | 'signUp';

/** /login and /sign-up without state: the Login and Sign up tabs. */
export function LoginPage({ initialTab = 'login' }: { initialTab?: AuthTab }) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
  const location = useLocation();
  const navigate = useNavigate();
  const notice = noticeFrom(location.state);
  // A third-party sign-in waiting for the two-factor code opens the login form's second step.
  useThirdPartyMfaStep(useCallback(() => setTab('login'), []));

  // A notice handed over by the previous screen (e.g. after a reset) shows once, then leaves the history entry.
  useEffect(() => {
    if (!notice) return;
    toast.success(notice);
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [notice, navigate, location.pathname, location.search]);

  const tabs: PlainTab<AuthTab>[] = [
    { key: 'login', label: Texts.login, children: <LoginForm /> },
    {
      key: 'signUp',
      label: Texts.signUp,
      children: (
        <Suspense fallback={<LoadingStep />}>
          <SignUpForm />
        </Suspense>
      ),
    },
  ];

  const onLogin = tab === 'login';
  return (
    <>
      <PlainTabs tabs={tabs} active={tab} onChange={setTab} />
      <div className="auth-toggle">
        <span>{onLogin ? Texts.notAMember : Texts.alreadyAMember}</span>
        <Button type="link" onClick={() => setTab(onLogin ? 'signUp' : 'login')}>
          {onLogin ? Texts.signUp : Texts.login}
        </Button>
      </div>
    </>
  );
}
