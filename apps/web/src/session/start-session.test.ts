import { type AuthSession, endpoints, type PublicConfig } from '@ebs/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, failed, on, type Reply, serveEndpoints, wrapped } from '../testing/page-test-kit';

const session: AuthSession = {
  idToken: 'token-1',
  expiresIn: 900,
  user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
};
const storedUser = { id: 'u1', email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee', mfaEnabled: true };
const storedAccount = { id: 'a1', name: 'Acme', cards: [], features: { tokenForwardingEnabled: false } };
const config = (appEnv: string, analyticsScriptUrl?: string): PublicConfig => ({
  appEnv,
  docsUrl: 'https://docs.example/',
  apiBase: 'http://localhost',
  productName: 'EBS Console',
  ...(analyticsScriptUrl ? { analyticsScriptUrl } : {}),
});
const TAG = 'https://analytics.example.com/tag.js?id=EBS-1';

/** A fresh start (the check runs once per page load): the modules are loaded anew for each test. */
async function start(refresh: () => Reply<AuthSession> | Promise<Reply<AuthSession>>, publicConfig = config('dev')) {
  vi.resetModules();
  const calls = serveEndpoints(
    on(endpoints.identity.refresh, refresh),
    on(endpoints.system.config, () => wrapped(publicConfig)),
  );
  const store = await import('./session-store');
  const { startSession } = await import('./start-session');
  return { store, calls, started: startSession() };
}

describe('the start-up check (spec A §1, spec B §1)', () => {
  beforeEach(() => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
  });
  afterEach(() => {
    localStorage.clear();
    for (const tag of document.head.querySelectorAll('script[data-analytics-tag]')) tag.remove();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('restores the stored account and user, and records the login of an authenticated user', async () => {
    localStorage.setItem('user', JSON.stringify(storedUser));
    localStorage.setItem('currentAccount', JSON.stringify(storedAccount));
    const { store, calls, started } = await start(() => wrapped(session));
    await started;
    const state = store.getSession();
    expect(store.isSignedIn(state)).toBe(true);
    expect(state).toMatchObject({ ready: true, idToken: 'token-1', authUser: session.user, mfaEnabled: true });
    expect(state.user).toEqual(storedUser);
    expect(state.currentAccount).toEqual(storedAccount);
    expect(callsTo(calls, endpoints.identity.refresh)).toHaveLength(1);
    expect(console.info).toHaveBeenCalledWith('Signed-in session restored for', 'ann@example.com');
  });

  it('clears all browser storage when there is no authenticated user', async () => {
    localStorage.setItem('user', JSON.stringify(storedUser));
    localStorage.setItem('currentAccount', JSON.stringify(storedAccount));
    sessionStorage.setItem('draft', 'x');
    const { store, started } = await start(() => failed(401, 'Token expired', 'Unauthorized'));
    await started;
    const state = store.getSession();
    expect(store.isSignedIn(state)).toBe(false);
    expect(state).toMatchObject({ ready: true, user: null, currentAccount: null });
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('shows nothing until the check has finished', async () => {
    let answer: ((reply: Reply<AuthSession>) => void) | undefined;
    const { store, started } = await start(() => new Promise<Reply<AuthSession>>((resolve) => (answer = resolve)));
    await vi.waitFor(() => expect(answer).toBeDefined());
    expect(store.getSession().ready).toBe(false);
    answer?.(wrapped(session));
    await started;
    expect(store.getSession().ready).toBe(true);
  });

  it('starts the analytics tag once, only in the prod environment', async () => {
    const tags = () => document.head.querySelectorAll('script[data-analytics-tag]');
    await (await start(() => wrapped(session), config('dev', TAG))).started;
    await (await start(() => wrapped(session), config('staging', TAG))).started;
    expect(tags()).toHaveLength(0);

    await (await start(() => wrapped(session), config('prod', TAG))).started;
    await (await start(() => failed(401, 'Token expired', 'Unauthorized'), config('prod', TAG))).started;
    expect(tags()).toHaveLength(1);
    expect(tags()[0]).toMatchObject({ src: TAG, async: true });
  });
});
