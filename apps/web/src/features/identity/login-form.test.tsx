import { type AuthSession, endpoints, Messages, type MfaChallenge, type SignInResult } from '@ebs/contract';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { clearSession, getSession, isSignedIn } from '../../session/session-store';
import {
  callsTo,
  type EndpointCall,
  type FetchCall,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { LoginForm } from './login-form';

const { answerMfaChallenge } = endpoints.identity;

const challenge: MfaChallenge = { challengeName: 'SOFTWARE_TOKEN_MFA', session: 'challenge-1', expiresIn: 300 };
const session: AuthSession = {
  idToken: 'token-1',
  expiresIn: 900,
  user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
};

/** The login form at /login; `signIn` and `mfa` answer the two identity calls. */
function open(
  signIn: Reply<SignInResult>,
  mfa: (call: EndpointCall<typeof answerMfaChallenge>) => Reply<AuthSession> = () => wrapped(session),
) {
  const calls = serveEndpoints(
    on(endpoints.identity.signIn, () => signIn),
    on(answerMfaChallenge, mfa),
  );
  renderPage('/login', '/login', <LoginForm />);
  return calls;
}

async function submitPassword() {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'Ann@Example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret pass 1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

const codeField = () => screen.getByLabelText('Authentication code') as HTMLInputElement;
const mfaCalls = (calls: FetchCall[]) => callsTo(calls, answerMfaChallenge);

describe('the login second step (two-factor sign-in)', () => {
  setUpPageTests();
  afterEach(() => clearSession());

  it('signs in at once when two-factor sign-in is off', async () => {
    open(wrapped(session));
    await submitPassword();
    expect(await screen.findByText('Elsewhere: /')).toBeTruthy();
    expect(getSession().idToken).toBe('token-1');
    expect(screen.queryByText('Two-factor sign-in')).toBeNull();
  });

  it('asks for the code after the password, keeping the user in the store, then the code signs in', async () => {
    const calls = open(wrapped(challenge));
    await submitPassword();
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    expect(getSession().mfaUser).toMatchObject({ email: 'ann@example.com', session: 'challenge-1' });
    expect(isSignedIn(getSession())).toBe(false);
    const field = codeField();
    expect(document.activeElement).toBe(field);
    expect(field.inputMode).toBe('numeric');
    expect(field.autocomplete).toBe('one-time-code');

    fireEvent.change(field, { target: { value: '123 45a6' } });
    expect(field.value).toBe('123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Elsewhere: /')).toBeTruthy();
    expect(mfaCalls(calls).map((c) => c.body)).toEqual([{ session: 'challenge-1', code: '123456' }]);
    expect(getSession()).toMatchObject({ idToken: 'token-1', mfaUser: null });
    expect(toast.success).toHaveBeenCalledWith(Messages.welcome);
  });

  it("shows the server's message for a wrong code and stays on the second step, the field emptied", async () => {
    open(wrapped(challenge), () => failed(400, Messages.mfaCodeMismatch, 'CodeMismatchException'));
    await submitPassword();
    fireEvent.change(await screen.findByLabelText('Authentication code'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(expect.objectContaining({ message: Messages.mfaCodeMismatch })),
    );
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
    await vi.waitFor(() => expect(codeField().value).toBe(''));
    expect(getSession().mfaUser).not.toBeNull();
    expect(isSignedIn(getSession())).toBe(false);
  });

  it('checks the code before sending it: required, then 6 digits', async () => {
    const calls = open(wrapped(challenge));
    await submitPassword();
    await screen.findByLabelText('Authentication code');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(Messages.authCodeRequired)).toBeTruthy();
    fireEvent.change(codeField(), { target: { value: '12a3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(Messages.authCodeFormat)).toBeTruthy();
    expect(mfaCalls(calls)).toHaveLength(0);
  });

  it('takes a recovery code instead, on "Use a recovery code"', async () => {
    const calls = open(wrapped(challenge));
    await submitPassword();
    await screen.findByLabelText('Authentication code');
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code') as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(Messages.recoveryCodeRequired)).toBeTruthy();
    fireEvent.change(field, { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(Messages.recoveryCodeFormat)).toBeTruthy();
    fireEvent.change(field, { target: { value: ' abcde-23456 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Elsewhere: /')).toBeTruthy();
    expect(mfaCalls(calls).map((c) => c.body)).toEqual([{ session: 'challenge-1', code: 'abcde-23456' }]);
  });

  it('goes back to the password when the challenge has ended, with the message', async () => {
    open(wrapped(challenge), () => failed(400, Messages.mfaChallengeExpired, 'NotAuthorizedException'));
    await submitPassword();
    fireEvent.change(await screen.findByLabelText('Authentication code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByLabelText('Email')).toBeTruthy();
    expect(toast.error).toHaveBeenCalledWith(expect.objectContaining({ message: Messages.mfaChallengeExpired }));
    expect(getSession().mfaUser).toBeNull();
  });

  it('goes back to the password on "Back to login"', async () => {
    open(wrapped(challenge));
    await submitPassword();
    await screen.findByLabelText('Authentication code');
    fireEvent.click(screen.getByRole('button', { name: 'Back to login' }));
    expect(await screen.findByLabelText('Email')).toBeTruthy();
    expect(getSession().mfaUser).toBeNull();
  });
});

describe('the login first step (e-mail and password)', () => {
  setUpPageTests();
  afterEach(() => clearSession());

  const signInCalls = (calls: FetchCall[]) => callsTo(calls, endpoints.identity.signIn);
  const email = () => screen.getByLabelText('Email') as HTMLInputElement;
  const password = () => screen.getByLabelText('Password') as HTMLInputElement;

  it('asks for both fields before sending anything, each error named by its field', async () => {
    const calls = open(wrapped(session));
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(Messages.emailRequired)).toBeTruthy();
    expect(screen.getByText(Messages.passwordRequired)).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email().getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      Messages.emailRequired,
    );
    expect(password().getAttribute('aria-invalid')).toBe('true');
    expect(signInCalls(calls)).toHaveLength(0);
  });

  it('takes blanks for nothing, clears an error as the field is filled, and sends the e-mail normalised', async () => {
    const calls = open(wrapped(session));
    fireEvent.change(email(), { target: { value: '   ' } });
    expect(await screen.findByText(Messages.emailRequired)).toBeTruthy();
    fireEvent.change(email(), { target: { value: ' Ann@Example.COM ' } });
    expect(screen.queryByText(Messages.emailRequired)).toBeNull();
    expect(email().getAttribute('aria-invalid')).toBeNull();
    expect(email().value).toBe('ann@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(Messages.passwordRequired)).toBeTruthy();
    expect(signInCalls(calls)).toHaveLength(0);
    fireEvent.change(password(), { target: { value: ' secret pass 1 ' } });
    fireEvent.submit(password());
    expect(await screen.findByText('Elsewhere: /')).toBeTruthy();
    expect(signInCalls(calls).map((c) => c.body)).toEqual([{ email: 'ann@example.com', password: ' secret pass 1 ' }]);
  });
});
