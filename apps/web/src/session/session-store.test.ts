import type { AuthSession, MfaChallenge, UserInfo } from '@ebs/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  cancelMfaLogin,
  clearSession,
  getSession,
  isSignedIn,
  markReady,
  requestMfaLogin,
  restoreFromStorage,
  setAuthSession,
  setMfaEnabled,
  setUser,
} from './session-store';

const challenge: MfaChallenge = { challengeName: 'SOFTWARE_TOKEN_MFA', session: 'challenge-1', expiresIn: 300 };
const session: AuthSession = {
  idToken: 'token-1',
  expiresIn: 900,
  user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
};
const user: UserInfo = {
  id: 'u1',
  email: 'ann@example.com',
  firstName: 'Ann',
  lastName: 'Lee',
  mfaEnabled: false,
  bonusRedemption: { welcomeCredit: false },
  ambassador: null,
};

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-21T10:00:00Z') });
  clearSession();
});

afterEach(() => {
  clearSession();
  vi.useRealTimers();
});

describe('the session store, spec B §4 auth actions', () => {
  it('MFA login request stores the user while the code is asked, signed out and in memory only', () => {
    requestMfaLogin('ann@example.com', challenge);
    expect(getSession().mfaUser).toEqual({
      email: 'ann@example.com',
      challengeName: 'SOFTWARE_TOKEN_MFA',
      session: 'challenge-1',
      expiresAt: Date.parse('2026-11-21T10:05:00Z'),
    });
    expect(isSignedIn(getSession())).toBe(false);
    expect(getSession().idToken).toBeNull();
    expect(JSON.stringify({ ...localStorage })).not.toContain('challenge-1');
    expect(JSON.stringify({ ...sessionStorage })).not.toContain('challenge-1');
  });

  it('login success stores the user and the id token, and ends the second step', () => {
    requestMfaLogin('ann@example.com', challenge);
    setAuthSession(session);
    expect(getSession()).toMatchObject({ idToken: 'token-1', authUser: session.user, mfaUser: null });
    expect(isSignedIn(getSession())).toBe(true);
  });

  it('giving up the second step forgets the waiting user; so does signing out', () => {
    requestMfaLogin('ann@example.com', challenge);
    cancelMfaLogin();
    expect(getSession().mfaUser).toBeNull();
    requestMfaLogin('ann@example.com', challenge);
    clearSession();
    expect(getSession().mfaUser).toBeNull();
  });

  it('MFA status update sets mfaEnabled, and the stored user record follows', () => {
    setAuthSession(session);
    setUser(user);
    expect(getSession().mfaEnabled).toBe(false);

    setMfaEnabled(true);
    expect(getSession().mfaEnabled).toBe(true);
    expect(getSession().user?.mfaEnabled).toBe(true);
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ mfaEnabled: true });

    setMfaEnabled(false);
    expect(getSession().mfaEnabled).toBe(false);
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ mfaEnabled: false });
  });

  it('takes mfaEnabled from the user info, fetched or restored from storage', () => {
    setUser({ ...user, mfaEnabled: true });
    expect(getSession().mfaEnabled).toBe(true);
    clearSession();
    expect(getSession().mfaEnabled).toBe(false);
    localStorage.setItem('user', JSON.stringify({ ...user, mfaEnabled: true }));
    restoreFromStorage();
    expect(getSession().mfaEnabled).toBe(true);
  });

  it('keeps the status when no user record is loaded yet, storing none', () => {
    setMfaEnabled(true);
    expect(getSession().mfaEnabled).toBe(true);
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('signed-in check is true exactly when a session id token exists', () => {
    expect(isSignedIn(getSession())).toBe(false);
    setUser(user);
    expect(isSignedIn(getSession())).toBe(false);
    setAuthSession(session);
    expect(isSignedIn(getSession())).toBe(true);
    clearSession();
    expect(isSignedIn(getSession())).toBe(false);
  });

  it('any other change resets to the signed-out state: nothing of the user, token or account is left', () => {
    setAuthSession(session);
    setUser(user);
    setMfaEnabled(true);
    requestMfaLogin('ann@example.com', challenge);
    markReady();
    clearSession();
    expect(getSession()).toEqual({
      ready: true,
      idToken: null,
      expiresAt: null,
      authUser: null,
      user: null,
      currentAccount: null,
      mfaEnabled: false,
      mfaUser: null,
    });
    expect(localStorage.length).toBe(0);
  });

  it('has no site-maintenance state to record: the session holds only what spec B §3 names', () => {
    markReady();
    setAuthSession(session);
    expect(Object.keys(getSession()).sort()).toEqual(
      ['authUser', 'currentAccount', 'expiresAt', 'idToken', 'mfaEnabled', 'mfaUser', 'ready', 'user'].sort(),
    );
    expect(isSignedIn(getSession())).toBe(true);
  });
});
