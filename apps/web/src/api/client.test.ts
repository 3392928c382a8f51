import type { AuthSession } from '@ebs/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, getSession, setAuthSession } from '../session/session-store';
import { api } from './client';

type Reply = { status: number; body: unknown };
type Handler = (url: string, init: RequestInit) => Reply;

const session = (idToken: string): AuthSession => ({
  idToken,
  expiresIn: 3600,
  user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
});

const expired = { status: 401, body: { statusCode: 401, message: 'CognitoTokenExpired', error: 'Unauthorized' } };
const wrapped = (data: unknown) => ({ status: 200, body: { statusCode: 200, message: 'OK', data } });

let fetchMock: ReturnType<typeof vi.fn>;

function serve(handler: Handler) {
  fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const reply = handler(url, init);
    return new Response(JSON.stringify(reply.body), { status: reply.status });
  });
  vi.stubGlobal('fetch', fetchMock);
}

const bearer = (init: RequestInit) => (init.headers as Record<string, string>).authorization;
const callsTo = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url).startsWith(path));

beforeEach(() => {
  clearSession();
  setAuthSession(session('old-token'));
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('api client', () => {
  it('refreshes once on CognitoTokenExpired and retries once with the new token', async () => {
    serve((url, init) => {
      if (url === '/auth/refresh') return wrapped(session('new-token'));
      return bearer(init) === 'Bearer new-token' ? wrapped({ balance: 5 }) : expired;
    });

    await expect(api.get('/api/v1.0/account/details')).resolves.toEqual({ balance: 5 });

    expect(callsTo('/auth/refresh')).toHaveLength(1);
    const detailCalls = callsTo('/api/v1.0/account/details');
    expect(detailCalls).toHaveLength(2);
    expect(bearer(detailCalls[1]?.[1] as RequestInit)).toBe('Bearer new-token');
    expect(getSession().idToken).toBe('new-token');
  });

  it('shares one refresh between concurrent expired requests', async () => {
    serve((url, init) => {
      if (url === '/auth/refresh') return wrapped(session('new-token'));
      return bearer(init) === 'Bearer new-token' ? wrapped(url) : expired;
    });

    const results = await Promise.all([
      api.get('/api/v1.0/user'),
      api.get('/api/v1.0/payment/card'),
      api.get('/api/v1.0/setting'),
    ]);

    expect(results).toEqual(['/api/v1.0/user', '/api/v1.0/payment/card', '/api/v1.0/setting']);
    expect(callsTo('/auth/refresh')).toHaveLength(1);
    expect(callsTo('/api/')).toHaveLength(6);
  });

  it('rejects a second CognitoTokenExpired after the retry instead of looping', async () => {
    serve((url) => (url === '/auth/refresh' ? wrapped(session('new-token')) : expired));

    await expect(api.get('/api/v1.0/user')).rejects.toThrow('CognitoTokenExpired');

    expect(callsTo('/auth/refresh')).toHaveLength(1);
    expect(callsTo('/api/v1.0/user')).toHaveLength(2);
  });

  it('signs out and rejects when the refresh fails', async () => {
    localStorage.setItem('user', '{}');
    serve((url) => {
      if (url === '/auth/refresh')
        return { status: 401, body: { statusCode: 401, message: 'Token expired', error: 'Unauthorized' } };
      if (url === '/auth/sign-out') return wrapped({ result: 'SUCCESS' });
      return expired;
    });

    await expect(api.get('/api/v1.0/user')).rejects.toThrow('Token expired');

    expect(callsTo('/auth/sign-out')).toHaveLength(1);
    expect(localStorage.length).toBe(0);
    expect(getSession().idToken).toBeNull();
  });

  it('clears browser storage and signs out on Token expired / Unauthorized', async () => {
    localStorage.setItem('currentAccount', '{"id":"a1"}');
    sessionStorage.setItem('draft', 'x');
    serve((url) =>
      url === '/auth/sign-out'
        ? wrapped({ result: 'SUCCESS' })
        : { status: 401, body: { statusCode: 401, message: 'Token expired', error: 'Unauthorized' } },
    );

    await expect(api.get('/api/v1.0/account/details')).rejects.toThrow('Token expired');

    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(getSession().idToken).toBeNull();
    expect(callsTo('/auth/sign-out')).toHaveLength(1);
    expect(callsTo('/auth/refresh')).toHaveLength(0);
  });

  it("rejects a non-success wrapper without a message with 'Unknown error!'", async () => {
    serve(() => ({ status: 200, body: { status: 500, data: null } }));

    await expect(api.get('/api/v1.0/user')).rejects.toThrow('Unknown error!');
  });

  it('rejects a non-success wrapper with its message', async () => {
    serve(() => ({ status: 200, body: { status: 400, message: 'Nope', data: null } }));

    await expect(api.post('/api/v1.0/account', { body: {} })).rejects.toThrow('Nope');
  });

  it('counts {status: 200, data} as success (the lenient rule)', async () => {
    serve(() => ({ status: 200, body: { status: 200, data: { ok: true } } }));

    await expect(api.get('/api/v1.0/user')).resolves.toEqual({ ok: true });
  });

  it('rejects an error answer with its message and keeps the error name', async () => {
    serve(() => ({
      status: 400,
      body: { statusCode: 400, message: 'User is not confirmed.', error: 'UserNotConfirmedException' },
    }));

    await expect(api.post('/auth/sign-in', { body: {} })).rejects.toMatchObject({
      message: 'User is not confirmed.',
      code: 'UserNotConfirmedException',
    });
  });

  it('rejects an error answer without a message with the raw HTTP error: its status and body', async () => {
    const page = '<html><body>502 Bad Gateway</body></html>';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(page, { status: 502 })),
    );

    await expect(api.get('/api/v1.0/user')).rejects.toMatchObject({
      message: 'Request failed with status code 502',
      status: 502,
      code: undefined,
      body: page,
    });
  });

  it('rejects a call that never got an answer with the raw network error', async () => {
    const offline = new TypeError('Failed to fetch');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(offline)),
    );

    await expect(api.get('/api/v1.0/user')).rejects.toBe(offline);
  });

  it('rejects a non-string error message as JSON text', async () => {
    serve(() => ({ status: 400, body: { statusCode: 400, message: ['a', 'b'], error: 'Bad Request' } }));

    await expect(api.get('/api/v1.0/user')).rejects.toThrow('["a","b"]');
  });

  it('leaves out undefined query values and sends the account header as given', async () => {
    serve(() => wrapped([]));

    await api.get('/api/v1.0/account', { query: { limit: 10, offset: 0, name: undefined }, accountId: '' });

    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1.0/account?limit=10&offset=0');
    expect(init.headers).toMatchObject({ 'ebs-account-id': '', authorization: 'Bearer old-token' });
    expect(init.credentials).toBe('same-origin');
  });

  it('sends extra headers such as an idempotency key next to its own', async () => {
    serve(() => wrapped({ ok: true }));

    await api.post('/api/v1.0/payment/card/deposit', {
      body: { cardId: 'c1', depositAmount: 5 },
      accountId: 'a1',
      headers: { 'idempotency-key': 'key-12345678', authorization: 'Bearer forged' },
    });

    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.headers).toMatchObject({
      'idempotency-key': 'key-12345678',
      'ebs-account-id': 'a1',
      authorization: 'Bearer old-token',
    });
  });
});
