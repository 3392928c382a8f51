import { Messages } from '@ebs/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { clearSession, setAuthSession } from '../../session/session-store';
import { polyfillMatchMedia, spyOnToasts } from '../../testing/page-test-kit';
import { ThirdPartyLanding } from './third-party-landing';

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
spyOnToasts();

afterEach(() => {
  cleanup();
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
