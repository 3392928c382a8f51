import { setSessionLink } from '../api/session-link';
import { getSession, setAuthSession } from './session-store';
import { signOut } from './sign-out';

/**
 * Hands the HTTP client the session's identity token and current account, where a renewed token
 * goes (the session store) and how to sign out: the client's calls and its renewal on an expired
 * token (api/client.ts) act on this session. Called first at start-up (startSession).
 */
export function linkApiToSession(): void {
  setSessionLink({
    idToken: () => getSession().idToken,
    currentAccountId: () => getSession().currentAccount?.id,
    renewed: setAuthSession,
    signOut,
  });
}
