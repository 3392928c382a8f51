import { type AuthSession, endpoints, type PaymentCard, type Setting, type UserInfo } from '@ebs/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountDetails } from '../testing/account-details';
import {
  callsTo,
  type FetchCall,
  failed,
  on,
  type Reply,
  serveEndpoints,
  serveFetch,
  wrapped,
} from '../testing/page-test-kit';
import { api, apiWithMessage } from './client';
import { sessionLink } from './session-link';

const session = (idToken: string): AuthSession => ({
  idToken,
  expiresIn: 3600,
  user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
});
const user: UserInfo = {
  id: 'u1',
  email: 'ann@example.com',
  firstName: 'Ann',
  lastName: 'Lee',
  mfaEnabled: false,
  bonusRedemption: { welcomeCredit: false },
  ambassador: null,
};
const cards: PaymentCard[] = [
  { id: 'pm_1', defaultPaymentMethod: true, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } },
];
const setting: Setting = { name: 'DEPOSIT', settings: { minAmount: 5 } };

const { refresh, signOut, signIn } = endpoints.identity;

const expired = failed(401, 'CognitoTokenExpired', 'Unauthorized');
const tokenExpired = failed(401, 'Token expired', 'Unauthorized');

/** Answers `data` to a call sent with the renewed token, CognitoTokenExpired to any other. */
const withNewToken =
  <T>(data: T) =>
  (call: FetchCall): Reply<T> =>
    call.headers.authorization === 'Bearer new-token' ? wrapped(data) : expired;

// The client acts on the session as the app's start-up links them (testing/setup.ts does the same):
// the user is signed in with 'old-token' as a renewal would store it.
beforeEach(() => {
  sessionLink().renewed(session('old-token'));
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The renewal and sign-out rules: the stand-ins answer each endpoint in its own way. */
describe('api client: token renewal and sign-out', () => {
  it('refreshes once on CognitoTokenExpired and retries once with the new token', async () => {
    const details = accountDetails({ balance: 5 });
    const calls = serveEndpoints(
      on(refresh, () => wrapped(session('new-token'))),
      on(endpoints.accounts.details, withNewToken(details)),
    );

    await expect(api(endpoints.accounts.details)).resolves.toEqual(details);

    expect(callsTo(calls, refresh)).toHaveLength(1);
    const detailCalls = callsTo(calls, endpoints.accounts.details);
    expect(detailCalls).toHaveLength(2);
    expect(detailCalls[1]?.headers.authorization).toBe('Bearer new-token');
    expect(sessionLink().idToken()).toBe('new-token');
  });

  it('shares one refresh between concurrent expired requests', async () => {
    const calls = serveEndpoints(
      on(refresh, () => wrapped(session('new-token'))),
      on(endpoints.users.info, withNewToken(user)),
      on(endpoints.cards.list, withNewToken(cards)),
      on(endpoints.settings.read, withNewToken(setting)),
    );

    const results = await Promise.all([
      api(endpoints.users.info),
      api(endpoints.cards.list),
      api(endpoints.settings.read, { query: { name: 'DEPOSIT' } }),
    ]);

    expect(results).toEqual([user, cards, setting]);
    expect(callsTo(calls, refresh)).toHaveLength(1);
    expect(callsTo(calls, endpoints.users.info)).toHaveLength(2);
    expect(callsTo(calls, endpoints.cards.list)).toHaveLength(2);
    expect(callsTo(calls, endpoints.settings.read)).toHaveLength(2);
    expect(calls).toHaveLength(7);
  });

  it('rejects a second CognitoTokenExpired after the retry instead of looping', async () => {
    const calls = serveEndpoints(
      on(refresh, () => wrapped(session('new-token'))),
      on(endpoints.users.info, () => expired),
    );

    await expect(api(endpoints.users.info)).rejects.toThrow('CognitoTokenExpired');

    expect(callsTo(calls, refresh)).toHaveLength(1);
    expect(callsTo(calls, endpoints.users.info)).toHaveLength(2);
  });

  it('signs out and rejects when the refresh fails', async () => {
    localStorage.setItem('user', '{}');
    const calls = serveEndpoints(
      on(refresh, () => tokenExpired),
      on(signOut, () => wrapped({ result: 'SUCCESS' })),
      on(endpoints.users.info, () => expired),
    );

    await expect(api(endpoints.users.info)).rejects.toThrow('Token expired');

    expect(callsTo(calls, signOut)).toHaveLength(1);
    expect(localStorage.length).toBe(0);
    expect(sessionLink().idToken()).toBeNull();
  });

  it('clears browser storage and signs out on Token expired / Unauthorized', async () => {
    localStorage.setItem('currentAccount', '{"id":"a1"}');
    sessionStorage.setItem('draft', 'x');
    const calls = serveEndpoints(
      on(signOut, () => wrapped({ result: 'SUCCESS' })),
      on(refresh, () => tokenExpired),
      on(endpoints.accounts.details, () => tokenExpired),
    );

    await expect(api(endpoints.accounts.details)).rejects.toThrow('Token expired');

    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(sessionLink().idToken()).toBeNull();
    expect(callsTo(calls, signOut)).toHaveLength(1);
    expect(callsTo(calls, refresh)).toHaveLength(0);
  });
});

/**
 * How the client sends a request and reads an answer, whatever the endpoint: the stand-in answers
 * every call alike (serveFetch), or fetch itself is replaced where the answer is no JSON or none.
 */
describe('api client: the HTTP exchange', () => {
  it("rejects a non-success wrapper without a message with 'Unknown error!'", async () => {
    serveFetch(() => ({ status: 200, body: { status: 500, data: null } }));

    await expect(api(endpoints.users.info)).rejects.toThrow('Unknown error!');
  });

  it('rejects a non-success wrapper with its message', async () => {
    serveFetch(() => ({ status: 200, body: { status: 400, message: 'Nope', data: null } }));

    await expect(api(endpoints.accounts.create, { body: { accountName: 'Ops' } })).rejects.toThrow('Nope');
  });

  it('counts {status: 200, data} as success (the lenient rule)', async () => {
    serveFetch(() => ({ status: 200, body: { status: 200, data: { ok: true } } }));

    await expect(api(endpoints.users.info)).resolves.toEqual({ ok: true });
  });

  it('rejects an error answer with its message and keeps the error name', async () => {
    serveFetch(() => failed(400, 'User is not confirmed.', 'UserNotConfirmedException'));

    await expect(api(signIn, { body: { email: 'ann@example.com', password: 'secret pass 1' } })).rejects.toMatchObject({
      message: 'User is not confirmed.',
      code: 'UserNotConfirmedException',
    });
  });

  it('rejects an error answer without a message with the raw HTTP error: its status and body', async () => {
    // Not serveFetch: its answers are JSON, and this one is an HTML page.
    const page = '<html><body>502 Bad Gateway</body></html>';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(page, { status: 502 })),
    );

    await expect(api(endpoints.users.info)).rejects.toMatchObject({
      message: 'Request failed with status code 502',
      status: 502,
      code: undefined,
      body: page,
    });
  });

  it('rejects a call that never got an answer with the raw network error', async () => {
    // Not serveFetch: it always answers, and this call gets no answer.
    const offline = new TypeError('Failed to fetch');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(offline)),
    );

    await expect(api(endpoints.users.info)).rejects.toBe(offline);
  });

  it('answers the data with the wrapper’s message when asked, and rejects a failure the same way', async () => {
    serveFetch(() =>
      wrapped({ monthlyCapUsd: '25.00', autoPayMonthlyMaxUsd: null }, 'Your spending cap has been saved.'),
    );
    const body = { settingName: 'spendingCap', fields: { monthlyCapUsd: '25.00' } } as const;

    await expect(apiWithMessage(endpoints.billing.updateAccountSettings, { body })).resolves.toEqual({
      data: { monthlyCapUsd: '25.00', autoPayMonthlyMaxUsd: null },
      message: 'Your spending cap has been saved.',
    });
    serveFetch(() => ({ status: 200, body: { status: 200, data: { ok: true } } }));
    await expect(apiWithMessage(endpoints.users.info)).resolves.toEqual({ data: { ok: true }, message: '' });
    serveFetch(() => failed(403, 'Only the owner of this account can change this.', 'Forbidden'));
    await expect(apiWithMessage(endpoints.billing.updateAccountSettings, { body })).rejects.toThrow(
      'Only the owner of this account can change this.',
    );
  });

  it('rejects a non-string error message as JSON text', async () => {
    serveFetch(() => ({ status: 400, body: { statusCode: 400, message: ['a', 'b'], error: 'Bad Request' } }));

    await expect(api(endpoints.users.info)).rejects.toThrow('["a","b"]');
  });

  it('leaves out undefined query values and sends the account header as given', async () => {
    const calls = serveFetch(() => wrapped({ transactions: [], totalCount: 0 }));

    await api(endpoints.billing.listTransactions, {
      query: { limit: 10, offset: 0, dateStart: undefined },
      accountId: '',
    });

    const [call] = callsTo(calls, endpoints.billing.listTransactions);
    expect(calls).toHaveLength(1);
    expect(call?.query).toEqual({ limit: '10', offset: '0' });
    expect(call?.headers).toMatchObject({ 'ebs-account-id': '', authorization: 'Bearer old-token' });
    expect(call?.credentials).toBe('same-origin');
  });

  it('sends a PATCH to the path with its parameters, its body as JSON text', async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json({ statusCode: 200, message: 'OK', data: { added: 1, removed: 0, addressCount: 1 } }),
    );
    vi.stubGlobal('fetch', fetch);
    const add = ['0x52908400098527886e0f7030069857d2e4169ee7'];

    await expect(
      api(endpoints.notify.changeAddresses, { params: { webhookId: 'w 1' }, body: { add }, accountId: 'a1' }),
    ).resolves.toEqual({ added: 1, removed: 0, addressCount: 1 });

    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1.0/notify/webhook/w%201/addresses');
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe(JSON.stringify({ add }));
    expect(init?.headers).toMatchObject({ 'content-type': 'application/json', 'ebs-account-id': 'a1' });
  });

  it('sends extra headers such as an idempotency key next to its own', async () => {
    const calls = serveFetch(() => wrapped({ ok: true }));

    await api(endpoints.billing.deposit, {
      body: { cardId: 'c1', depositAmount: 5 },
      accountId: 'a1',
      headers: { 'idempotency-key': 'key-12345678', authorization: 'Bearer forged' },
    });

    const [call] = callsTo(calls, endpoints.billing.deposit);
    expect(calls).toHaveLength(1);
    expect(call?.headers).toMatchObject({
      'idempotency-key': 'key-12345678',
      'ebs-account-id': 'a1',
      authorization: 'Bearer old-token',
    });
  });
});
