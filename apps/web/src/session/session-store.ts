import type { AccountDetails, AuthSession, AuthUser, MfaChallenge, PaymentCard, UserInfo } from '@ebs/contract';
import { useSyncExternalStore } from 'react';

export interface CurrentAccount extends AccountDetails {
  cards: PaymentCard[];
  features: { tokenForwardingEnabled: boolean };
}

/**
 * The user whose sign-in waits for a two-factor code (spec B §4 "MFA login request stores the
 * user"), with the challenge that names it. Memory only, like the identity token.
 */
export interface MfaUser {
  email: string;
  challengeName: MfaChallenge['challengeName'];
  session: string;
  /** Epoch milliseconds at which the challenge expires. */
  expiresAt: number;
}

export interface SessionState {
  /** True once the start-up check has ended; nothing renders before. */
  ready: boolean;
  /** Memory only: the identity token never goes to browser storage. */
  idToken: string | null;
  /** Epoch milliseconds at which idToken expires. */
  expiresAt: number | null;
  authUser: AuthUser | null;
  user: UserInfo | null;
  currentAccount: CurrentAccount | null;
  /** spec B §3 auth state: whether two-factor sign-in is on, from the user info or its last change. */
  mfaEnabled: boolean;
  mfaUser: MfaUser | null;
}

const USER_KEY = 'user';
const ACCOUNT_KEY = 'currentAccount';

const signedOut: SessionState = {
  ready: false,
  idToken: null,
  expiresAt: null,
  authUser: null,
  user: null,
  currentAccount: null,
  mfaEnabled: false,
  mfaUser: null,
};

let state: SessionState = signedOut;
const listeners = new Set<() => void>();

function update(patch: Partial<SessionState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

function readStored<T>(key: string): T | null {
  try {
    const text = localStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

function writeStored(key: string, value: unknown) {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
}

export const getSession = () => state;

export function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const useSession = () => useSyncExternalStore(subscribe, getSession);

export const isSignedIn = (session: SessionState) => session.idToken !== null;

export function restoreFromStorage() {
  const user = readStored<UserInfo>(USER_KEY);
  update({ user, mfaEnabled: user?.mfaEnabled === true, currentAccount: readStored<CurrentAccount>(ACCOUNT_KEY) });
}

export function markReady() {
  update({ ready: true });
}

/** Login success (and a refreshed token): the user and the identity token; a pending second step ends. */
export function setAuthSession(session: AuthSession) {
  update({
    idToken: session.idToken,
    expiresAt: Date.now() + session.expiresIn * 1000,
    authUser: session.user,
    mfaUser: null,
  });
}

/** MFA login request: the password was right and the sign-in waits for a code; not signed in yet. */
export function requestMfaLogin(email: string, challenge: MfaChallenge) {
  update({
    mfaUser: {
      email,
      challengeName: challenge.challengeName,
      session: challenge.session,
      expiresAt: Date.now() + challenge.expiresIn * 1000,
    },
  });
}

/** The second step was given up, or its challenge can no longer be answered: back to the password. */
export function cancelMfaLogin() {
  update({ mfaUser: null });
}

export function setUser(user: UserInfo | null) {
  writeStored(USER_KEY, user);
  update({ user, mfaEnabled: user?.mfaEnabled === true });
}

/** MFA status update: two-factor sign-in was turned on or off; the stored user record follows. */
export function setMfaEnabled(mfaEnabled: boolean) {
  const user = state.user ? { ...state.user, mfaEnabled } : null;
  if (user) writeStored(USER_KEY, user);
  update({ mfaEnabled, user });
}

export function setCurrentAccount(currentAccount: CurrentAccount | null) {
  writeStored(ACCOUNT_KEY, currentAccount);
  update({ currentAccount });
}

/** Fresh details of the current account replace the stored ones; its cards and features are kept. */
export function refreshCurrentAccount(details: AccountDetails) {
  const current = state.currentAccount;
  if (current?.id === details.id) setCurrentAccount({ ...current, ...details });
}

/** Clears all browser storage and forgets the signed-in user. */
export function clearSession() {
  localStorage.clear();
  sessionStorage.clear();
  update({ ...signedOut, ready: state.ready });
}
