import { type AuthSession, endpoints, Messages, thirdPartyMfaFragment } from '@ebs/contract';
import { fireEvent, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { clearSession, getSession, isSignedIn } from '../../session/session-store';
import {
  callsTo,
  type FetchCall,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { LoginPage } from './login-page';

const challengeSession = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';
const fragment = thirdPartyMfaFragment({ session: challengeSession, expiresIn: 300, email: 'a***@e***.com' });
const session: AuthSession = {
  idToken: 'token-1',
  expiresIn: 900,
  user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
};

/** The address as the browser shows it, fragment included. */
function Address() {
  const { pathname, search, hash } = useLocation();
  return <output aria-label="address">{`${pathname}${search}${hash}`}</output>;
}

const { answerMfaChallenge } = endpoints.identity;

/** The Login page at `path`; `mfa` answers the second step's call (answerMfaChallenge). */
function open(path: string, mfa: () => Reply<AuthSession> = () => wrapped(session)) {
  const calls = serveEndpoints(on(answerMfaChallenge, mfa));
  renderPage(
    path,
    '/login',
    <>
      <LoginPage />
      <Address />
    </>,
  );
  return calls;
}

const address = () => screen.getByLabelText('address').textContent;
const mfaCalls = (calls: FetchCall[]) => callsTo(calls, answerMfaChallenge);

describe('the Login page after a third-party sign-in that waits for the two-factor code', () => {
  setUpPageTests();
  afterEach(() => clearSession());

  it('reads the challenge from the fragment, removes it from the address, and the code signs in', async () => {
    const calls = open(`/login?keep=1${fragment}`);
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
    expect(screen.getByText('a***@e***.com')).toBeTruthy();
    expect(address()).toBe('/login?keep=1');
    expect(getSession().mfaUser).toMatchObject({
      email: 'a***@e***.com',
      challengeName: 'SOFTWARE_TOKEN_MFA',
      session: challengeSession,
    });
    const expiresAt = getSession().mfaUser?.expiresAt ?? 0;
    expect(expiresAt - Date.now()).toBeGreaterThan(290_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(300_000);
    expect(isSignedIn(getSession())).toBe(false);

    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Elsewhere: /')).toBeTruthy();
    expect(mfaCalls(calls).map((c) => c.body)).toEqual([{ session: challengeSession, code: '123456' }]);
    expect(getSession()).toMatchObject({ idToken: 'token-1', mfaUser: null });
    expect(toast.success).toHaveBeenCalledWith(Messages.welcome);
  });

  it('shows the message of a wrong code and stays on the second step', async () => {
    open(`/login${fragment}`, () => failed(400, Messages.mfaCodeMismatch, 'CodeMismatchException'));
    fireEvent.change(await screen.findByLabelText('Authentication code'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(expect.objectContaining({ message: Messages.mfaCodeMismatch })),
    );
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
    expect(isSignedIn(getSession())).toBe(false);
  });

  it.each([
    ['free text in place of the masked e-mail', `#mfa=${challengeSession}&expiresIn=300&email=Call+0800+now`],
    ['a full e-mail', `#mfa=${challengeSession}&expiresIn=300&email=ann%40example.com`],
    ['no expiry', `#mfa=${challengeSession}&email=a***%40e***.com`],
    ['a session that is no challenge token', '#mfa=%3Cb%3E&expiresIn=300&email=a***%40e***.com'],
  ])('refuses a fragment with %s: the password form, a general failure, the fragment removed', async (_, hash) => {
    open(`/login${hash}`);
    expect(await screen.findByLabelText('Email')).toBeTruthy();
    await vi.waitFor(() => expect(address()).toBe('/login'));
    expect(toast.error).toHaveBeenCalledWith(Messages.thirdPartyFailed);
    expect(getSession().mfaUser).toBeNull();
    expect(screen.queryByText('Call 0800 now')).toBeNull();
  });

  it('leaves any other fragment alone', async () => {
    open('/login#top');
    expect(await screen.findByLabelText('Email')).toBeTruthy();
    expect(address()).toBe('/login#top');
    expect(toast.error).not.toHaveBeenCalled();
    expect(getSession().mfaUser).toBeNull();
  });
});

describe('the Login page tab set (spec B §2)', () => {
  setUpPageTests();

  it('offers Login and Sign up tabs, and no hidden Reset password tab (resetting is its own route)', async () => {
    open('/login');
    expect(await screen.findByLabelText('Email')).toBeTruthy();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Login', 'Sign up']);
    expect(screen.queryByRole('tab', { name: /reset/i })).toBeNull();
  });
});
