import { endpoints } from '@ebs/contract';
import { send } from '../api/http';
import { clearSession } from './session-store';

let signingOut: Promise<void> | null = null;

async function endSession() {
  try {
    const response = await send(endpoints.identity.signOut.method, endpoints.identity.signOut.path);
    if (!response.ok) console.error('Sign-out failed', response.status, response.body);
  } catch (error) {
    console.error('Sign-out failed', error);
  }
  clearSession();
  window.location.assign('/');
}

/**
 * Sign out: tell the identity service (a failure is only logged), clear browser storage and reload
 * the root page. Several expired requests at once still sign out once.
 */
export function signOut(): Promise<void> {
  signingOut ??= endSession().finally(() => {
    signingOut = null;
  });
  return signingOut;
}
