import { Messages } from '@ebs/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { clearSession, setAuthSession } from '../../session/session-store';
import { polyfillMatchMedia } from '../../testing/page-test-kit';
import { ThirdPartyLanding } from './third-party-landing';

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

function Where() {
  const location = useLocation();
  return <output aria-label="where">{`${location.pathname}${location.search}`}</output>;
}

const renderLanding = () =>
  render(
    <MemoryRouter initialEntries={['/third-party-sign-in']}>
      <Routes>
        <Route path="/third-party-sign-in" element={<ThirdPartyLanding />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );

beforeAll(polyfillMatchMedia);

afterEach(() => {
  cleanup();
  vi.mocked(toast.success).mockClear();
  clearSession();
});

describe('ThirdPartyLanding', () => {
  it('welcomes a user whose sign-in the start-up check turned into a session, and goes to /', async () => {
    setAuthSession({
      idToken: 'token',
      expiresIn: 900,
      user: { sub: 'u1', email: 'olive@example.com', givenName: 'Olive', familyName: 'Provider' },
    });
    renderLanding();

    expect((await screen.findByLabelText('where')).textContent).toBe('/');
    expect(toast.success).toHaveBeenCalledWith(Messages.welcome);
  });

  it('sends a browser whose session did not come through to the Login page with the failure', async () => {
    renderLanding();

    expect((await screen.findByLabelText('where')).textContent).toBe('/login?error=failed');
    expect(toast.success).not.toHaveBeenCalled();
  });
});
