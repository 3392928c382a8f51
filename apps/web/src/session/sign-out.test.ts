import { endpoints } from '@ebs/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, on, serveEndpoints } from '../testing/page-test-kit';
import { getSession, setAuthSession } from './session-store';
import { signOut } from './sign-out';

let assign: ReturnType<typeof vi.fn>;
let logged: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  setAuthSession({
    idToken: 'token-1',
    expiresIn: 900,
    user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
  });
  localStorage.setItem('user', '{"id":"u1"}');
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  logged = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** After sign-out: browser storage cleared, signed out, the root page reloaded. */
function expectSignedOut() {
  expect(localStorage.getItem('user')).toBeNull();
  expect(getSession().idToken).toBeNull();
  expect(assign).toHaveBeenCalledWith('/');
}

describe('sign-out, spec B §4', () => {
  it('only logs a sign-out call the server refuses, and signs out all the same', async () => {
    const calls = serveEndpoints(
      on(endpoints.identity.signOut, () => ({ status: 500, body: { statusCode: 500, message: 'boom' } })),
    );
    await expect(signOut()).resolves.toBeUndefined();
    expect(callsTo(calls, endpoints.identity.signOut)).toHaveLength(1);
    expect(logged).toHaveBeenCalledWith('Sign-out failed', 500, { statusCode: 500, message: 'boom' });
    expectSignedOut();
  });

  it('only logs a sign-out call that never reaches the server, and signs out all the same', async () => {
    const offline = new TypeError('Failed to fetch');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(offline)),
    );
    await expect(signOut()).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledWith('Sign-out failed', offline);
    expectSignedOut();
  });
});
