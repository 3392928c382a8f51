import { endpoints, type UserInfo } from '@ebs/contract';
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, type FetchCall, on, serveEndpoints, wrapped } from '../testing/page-test-kit';
import { clearSession, getSession, setAuthSession } from './session-store';
import { useUserInfoLoader } from './use-user-info-loader';

const user: UserInfo = {
  id: 'u1',
  email: 'ann@example.com',
  firstName: 'Ann',
  lastName: 'Lee',
  mfaEnabled: false,
  bonusRedemption: { welcomeCredit: false },
  ambassador: null,
};

let calls: FetchCall[];

const userCalls = () => callsTo(calls, endpoints.users.info);

beforeEach(() => {
  vi.useFakeTimers();
  clearSession();
  setAuthSession({
    idToken: 'token',
    expiresIn: 3600,
    user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
  });
  calls = serveEndpoints(on(endpoints.users.info, () => wrapped(user)));
});

afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('useUserInfoLoader', () => {
  it('waits one second, then loads the user once and stores it in the session', async () => {
    const { rerender } = renderHook(() => useUserInfoLoader());

    await vi.advanceTimersByTimeAsync(999);
    expect(userCalls()).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(1);
    expect(userCalls()).toHaveLength(1);
    expect(userCalls()[0]?.method).toBe('GET');

    await vi.waitFor(() => expect(getSession().user).toEqual(user));
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(user);

    rerender();
    await vi.advanceTimersByTimeAsync(5000);
    expect(userCalls()).toHaveLength(1);
  });

  it('does not load the user when unmounted before the second is up', async () => {
    const { unmount } = renderHook(() => useUserInfoLoader());

    await vi.advanceTimersByTimeAsync(500);
    unmount();
    await vi.advanceTimersByTimeAsync(5000);

    expect(calls).toHaveLength(0);
    expect(localStorage.getItem('user')).toBeNull();
  });
});
