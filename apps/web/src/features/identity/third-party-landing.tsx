import { Messages, THIRD_PARTY_ERROR_PARAM } from '@ebs/contract';
import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { toast } from '../../lib/toast';
import { isSignedIn, useSession } from '../../session/session-store';

/**
 * Where a successful third-party sign-in lands. The start-up check has already turned the refresh
 * cookie the server set into an identity token, as on any reload; signed in, this welcomes the
 * user and goes to / (hence /accounts), as a password login does (spec B §5). Had the cookie not
 * come through, the Login page says the sign-in failed.
 */
export function ThirdPartyLanding() {
  const signedIn = isSignedIn(useSession());
  useEffect(() => {
    if (signedIn) toast.success(Messages.welcome);
  }, [signedIn]);
  return <Navigate to={signedIn ? paths.root : `${paths.login}?${THIRD_PARTY_ERROR_PARAM}=failed`} replace />;
}
