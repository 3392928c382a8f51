import { endpoints, Messages, type PublicConfig, type ThirdPartyProvider } from '@ebs/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { message } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { publicConfigQuery } from '../../api/public-config';
import { toast } from '../../lib/toast';
import { callsTo, failed, on, polyfillMatchMedia, serveEndpoints } from '../../testing/page-test-kit';
import { ThirdPartyButtons } from './third-party-buttons';
import { thirdPartyLoginError } from './third-party-error';

const bothConfigured: ThirdPartyProvider[] = [
  { id: 'first', name: 'Google', configured: true },
  { id: 'second', name: 'GitLab', configured: true },
];

const config = (appEnv: string, thirdPartyProviders?: ThirdPartyProvider[]): PublicConfig => ({
  appEnv,
  docsUrl: 'https://docs.example/',
  apiBase: '/api',
  productName: 'EBS',
  ...(thirdPartyProviders ? { thirdPartyProviders } : {}),
});

function Where() {
  const location = useLocation();
  return <output aria-label="where">{`${location.pathname}${location.search}`}</output>;
}

function renderLogin(settings: PublicConfig | undefined, path = '/login') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (settings) client.setQueryData(publicConfigQuery.queryKey, settings);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <ThirdPartyButtons />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const button = (name: string) => screen.getByRole('button', { name: new RegExp(`Sign in with ${name}`) });

beforeAll(() => {
  polyfillMatchMedia();
});

// The toasts here are antd's own (a React root outside the page's): each test ends once the last
// one has left the screen, so no render of theirs is still due when the file's window is gone.
afterEach(async () => {
  cleanup();
  message.destroy();
  await waitFor(() => expect(document.querySelector('.ant-message-notice')).toBeNull());
  vi.unstubAllGlobals();
});

describe('ThirdPartyButtons', () => {
  it('offers both providers by their configured names outside prod, from the seeded config', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);

    renderLogin(config('dev', [bothConfigured[0]!, { id: 'second', name: 'Acme ID', configured: true }]));

    expect(button('Google')).toBeTruthy();
    expect(button('Acme ID')).toBeTruthy();
    expect(screen.queryByText('Sign in with GitLab')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers only the first provider in prod, even if a second were listed', () => {
    renderLogin(config('prod', bothConfigured));

    expect(button('Google')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Sign in with GitLab/ })).toBeNull();
  });

  it('keeps the default names when the configuration names no provider', () => {
    renderLogin(config('dev'));

    expect(button('Google')).toBeTruthy();
    expect(button('GitLab')).toBeTruthy();
  });

  it('sends the browser to the server to start a configured provider', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderLogin(config('dev', bothConfigured));

    fireEvent.click(button('Google'));
    expect(assign).toHaveBeenCalledWith('/auth/third-party/first/start');
    fireEvent.click(button('GitLab'));
    expect(assign).toHaveBeenLastCalledWith('/auth/third-party/second/start');
  });

  it('tells the user clearly that an unconfigured provider is not configured, and goes nowhere', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderLogin(config('dev', [{ id: 'first', name: 'Google', configured: false }, bothConfigured[1]!]));

    fireEvent.click(button('Google'));

    expect(await screen.findByText(Messages.providerNotConfigured)).toBeTruthy();
    expect(Messages.providerNotConfigured).toBe('This sign-in provider is not configured.');
    expect(assign).not.toHaveBeenCalled();
  });

  it('says not configured when the configuration could not be read', async () => {
    const calls = serveEndpoints(
      on(endpoints.system.config, () => failed(500, 'Internal error', 'Internal Server Error')),
    );
    renderLogin(undefined);

    fireEvent.click(button('GitLab'));

    expect(await screen.findByText('This sign-in provider is not configured.')).toBeTruthy();
    expect(callsTo(calls, endpoints.system.config)).toHaveLength(1);
  });

  it('shows a third-party sign-in error as the login error, once, and takes it out of the address', async () => {
    renderLogin(config('dev', bothConfigured), '/login?error=email_not_verified');

    expect(await screen.findByText(Messages.thirdPartyEmailNotVerified)).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText('where').textContent).toBe('/login'));
  });

  it('ignores silently a third-party login error containing signInUserSession', async () => {
    // Spied rather than read from the page: a notice of the test before may still be leaving it.
    const shown = vi.spyOn(toast, 'error');
    renderLogin(config('dev', bothConfigured), '/login?error=Error%3A%20signInUserSession%20is%20null');

    await waitFor(() => expect(screen.getByLabelText('where').textContent).toBe('/login'));
    expect(shown).not.toHaveBeenCalled();
    shown.mockRestore();
  });
});

describe('thirdPartyLoginError', () => {
  it('maps every code the server sends to its message, and anything else to a general failure', () => {
    expect(thirdPartyLoginError('access_denied')).toBe(Messages.thirdPartyDenied);
    expect(thirdPartyLoginError('invalid_state')).toBe(Messages.thirdPartyStateInvalid);
    expect(thirdPartyLoginError('provider_unavailable')).toBe(Messages.thirdPartyUnavailable);
    expect(thirdPartyLoginError('not_configured')).toBe(Messages.providerNotConfigured);
    expect(thirdPartyLoginError('Your account is locked, call 555')).toBe(Messages.thirdPartyFailed);
    expect(thirdPartyLoginError('toString')).toBe(Messages.thirdPartyFailed);
  });

  it('ignores no error and errors containing signInUserSession', () => {
    expect(thirdPartyLoginError(null)).toBeNull();
    expect(thirdPartyLoginError('')).toBeNull();
    expect(thirdPartyLoginError('TypeError: Cannot read signInUserSession of undefined')).toBeNull();
  });
});
