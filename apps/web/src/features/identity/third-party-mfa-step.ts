import { Messages, MFA_CHALLENGE_NAME, readThirdPartyMfaFragment, THIRD_PARTY_MFA_PARAM } from '@ebs/contract';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from '../../lib/toast';
import { requestMfaLogin } from '../../session/session-store';

const carriesStep = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).has(THIRD_PARTY_MFA_PARAM);

/**
 * A third-party sign-in of a user with two-factor sign-in on comes back to `/login#mfa=...`
 * (docs/decisions.md): the waiting user goes to the session store, as after a password, so the
 * login form shows its second step; the fragment leaves the address bar (and the history entry) at once.
 */
export function useThirdPartyMfaStep(onStep: () => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const { hash, pathname, search, state } = location;

  useEffect(() => {
    if (!carriesStep(hash)) return;
    const step = readThirdPartyMfaFragment(hash);
    if (step) {
      requestMfaLogin(step.email, {
        challengeName: MFA_CHALLENGE_NAME,
        session: step.session,
        expiresIn: step.expiresIn,
      });
      onStep();
    } else {
      toast.error(Messages.thirdPartyFailed);
    }
    void navigate({ pathname, search }, { replace: true, state });
  }, [hash, pathname, search, state, navigate, onStep]);
}
