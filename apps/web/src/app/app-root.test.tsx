import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, markReady, setAuthSession } from '../session/session-store';
import { AppRoot } from './app-root';

vi.mock('./app-router', () => ({
  AppRouter: ({ signedIn }: { signedIn: boolean }) => <p>{signedIn ? 'Signed-in routes' : 'Signed-out routes'}</p>,
}));

afterEach(() => {
  cleanup();
  act(() => clearSession());
});

describe('the app root, spec B §4 signed-in check', () => {
  it('serves the signed-in routes when a session id token exists, the signed-out ones otherwise', () => {
    act(() => markReady());
    render(<AppRoot />);
    expect(screen.getByText('Signed-out routes')).toBeTruthy();

    act(() =>
      setAuthSession({
        idToken: 'token-1',
        expiresIn: 900,
        user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
      }),
    );
    expect(screen.getByText('Signed-in routes')).toBeTruthy();

    act(() => clearSession());
    expect(screen.getByText('Signed-out routes')).toBeTruthy();
  });
});
