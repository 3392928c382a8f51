import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshIdToken } from '../api/client';
import { clearSession, setAuthSession } from './session-store';
import { startTokenRenewal } from './token-renewal';

vi.mock('../api/client', () => ({ refreshIdToken: vi.fn(() => Promise.resolve()) }));

const user = { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' };

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(refreshIdToken).mockClear();
  clearSession();
  startTokenRenewal();
});

afterEach(() => {
  clearSession();
  vi.useRealTimers();
});

describe('token renewal', () => {
  it('renews the identity token about a minute before it expires', () => {
    setAuthSession({ idToken: 't1', expiresIn: 900, user });

    vi.advanceTimersByTime(839_000);
    expect(refreshIdToken).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_000);
    expect(refreshIdToken).toHaveBeenCalledTimes(1);
  });

  it('renews a short-lived token at half its lifetime', () => {
    setAuthSession({ idToken: 't1', expiresIn: 30, user });

    vi.advanceTimersByTime(15_000);
    expect(refreshIdToken).toHaveBeenCalledTimes(1);
  });

  it('stops renewing once signed out', () => {
    setAuthSession({ idToken: 't1', expiresIn: 900, user });
    clearSession();

    vi.advanceTimersByTime(900_000);
    expect(refreshIdToken).not.toHaveBeenCalled();
  });
});
