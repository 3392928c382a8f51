import type { AccountDetails, AuthSession, AuthUser, PaymentCard, UserInfo } from '@ebs/contract';
import { useSyncExternalStore } from 'react';

export interface CurrentAccount extends AccountDetails {
  cards: PaymentCard[];
  features: { tokenForwardingEnabled: boolean };
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
  update({ user: readStored<UserInfo>(USER_KEY), currentAccount: readStored<CurrentAccount>(ACCOUNT_KEY) });
}

export function markReady() {
  update({ ready: true });
}

export function setAuthSession(session: AuthSession) {
  update({
    idToken: session.idToken,
    expiresAt: Date.now() + session.expiresIn * 1000,
    authUser: session.user,
  });
}

export function setUser(user: UserInfo | null) {
  writeStored(USER_KEY, user);
  update({ user });
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
