import { useLocation } from 'react-router-dom';
import { LoginPage } from './login-page';
import { credentialsFrom } from './navigation-state';
import { VerificationPage } from './verification-page';

/** /sign-up with e-mail and password in navigation state verifies them; without, it is the Sign up tab. */
export function SignUpRoute() {
  const credentials = credentialsFrom(useLocation().state);
  return credentials ? <VerificationPage email={credentials.email} /> : <LoginPage initialTab="signUp" />;
}
