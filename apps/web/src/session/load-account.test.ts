import type { PaymentCard } from '@ebs/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountDetails } from '../testing/account-details';
import { loadAccount } from './load-account';
import { clearSession, getSession, setAuthSession, setCurrentAccount, subscribe } from './session-store';

type Reply = { status: number; body: unknown };

const wrapped = (data: unknown): Reply => ({ status: 200, body: { statusCode: 200, message: 'OK', data } });

const details = (id: string) =>
  accountDetails({
    id,
    accountId: id,
    name: `Account ${id}`,
    accountName: `Account ${id}`,
    isBillingApiEnabled: false,
    balance: 12.5,
    owner: { email: 'ann@example.com' },
  });

const cards: PaymentCard[] = [
  { id: 'pm_1', defaultPaymentMethod: true, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } },
];

let fetchMock: ReturnType<typeof vi.fn>;

function serve(handler: (url: string) => Reply) {
  fetchMock = vi.fn(async (url: string) => {
    const reply = handler(url);
    return new Response(JSON.stringify(reply.body), { status: reply.status });
  });
  vi.stubGlobal('fetch', fetchMock);
}

const calledUrls = () => fetchMock.mock.calls.map(([url]) => String(url));
const accountHeaders = () =>
  fetchMock.mock.calls.map(([, init]) => ((init as RequestInit).headers as Record<string, string>)['ebs-account-id']);

beforeEach(() => {
  clearSession();
  setAuthSession({
    idToken: 'token',
    expiresIn: 3600,
    user: { sub: 'u1', email: 'ann@example.com', givenName: 'Ann', familyName: 'Lee' },
  });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('loadAccount', () => {
  it('fetches details, then cards, then the TOKEN_FORWARDING check, all for the given account', async () => {
    // Another account is current: the requests must still name the one being loaded.
    setCurrentAccount({ ...details('old'), cards: [], features: { tokenForwardingEnabled: false } });
    serve((url) => {
      if (url === '/api/v1.0/account/details') return wrapped(details('a1'));
      if (url === '/api/v1.0/payment/card') return wrapped(cards);
      return wrapped({ featureName: 'TOKEN_FORWARDING', result: true });
    });

    await loadAccount('a1');

    expect(calledUrls()).toEqual([
      '/api/v1.0/account/details',
      '/api/v1.0/payment/card',
      '/api/v1.0/feature/isAccountValidForFeature?featureName=TOKEN_FORWARDING',
    ]);
    for (const [, init] of fetchMock.mock.calls) expect((init as RequestInit).method).toBe('GET');
    expect(accountHeaders()).toEqual(['a1', 'a1', 'a1']);
  });

  it('makes the loaded account current, in memory and in localStorage, and notifies subscribers', async () => {
    serve((url) => {
      if (url === '/api/v1.0/account/details') return wrapped(details('a1'));
      if (url === '/api/v1.0/payment/card') return wrapped(cards);
      return wrapped({ featureName: 'TOKEN_FORWARDING', result: true });
    });
    const seen: unknown[] = [];
    const unsubscribe = subscribe(() => seen.push(getSession().currentAccount));

    const account = await loadAccount('a1');
    unsubscribe();

    const expected = { ...details('a1'), cards, features: { tokenForwardingEnabled: true } };
    expect(account).toEqual(expected);
    expect(getSession().currentAccount).toEqual(expected);
    expect(JSON.parse(localStorage.getItem('currentAccount') ?? 'null')).toEqual(expected);
    expect(seen).toContainEqual(expected);
  });

  it('records a disabled feature as tokenForwardingEnabled: false', async () => {
    serve((url) => {
      if (url === '/api/v1.0/account/details') return wrapped(details('a2'));
      if (url === '/api/v1.0/payment/card') return wrapped([]);
      return wrapped({ featureName: 'TOKEN_FORWARDING', result: false });
    });

    await loadAccount('a2');

    expect(getSession().currentAccount).toEqual({
      ...details('a2'),
      cards: [],
      features: { tokenForwardingEnabled: false },
    });
  });

  it('rejects with the server message and stores nothing when the details call fails', async () => {
    serve(() => ({ status: 404, body: { statusCode: 404, message: 'Account not found', error: 'Not Found' } }));
    const listener = vi.fn();
    const unsubscribe = subscribe(listener);

    await expect(loadAccount('missing')).rejects.toThrow('Account not found');
    unsubscribe();

    expect(calledUrls()).toEqual(['/api/v1.0/account/details']);
    expect(getSession().currentAccount).toBeNull();
    expect(localStorage.getItem('currentAccount')).toBeNull();
    expect(listener).not.toHaveBeenCalled();
  });
});
