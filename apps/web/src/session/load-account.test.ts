import { type Endpoint, endpoints, type PaymentCard } from '@ebs/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountDetails } from '../testing/account-details';
import {
  callsTo,
  type EndpointStub,
  type FetchCall,
  failed,
  on,
  serveEndpoints,
  wrapped,
} from '../testing/page-test-kit';
import { loadAccount } from './load-account';
import { clearSession, getSession, setAuthSession, setCurrentAccount, subscribe } from './session-store';

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

const { details: detailsCall, isFeatureEnabled } = endpoints.accounts;
const cardList = endpoints.cards.list;

/** The account's details, its cards, and the TOKEN_FORWARDING check answering `enabled`. */
const serveAccount = (id: string, accountCards: PaymentCard[], enabled: boolean) =>
  serveEndpoints(
    on(detailsCall, () => wrapped(details(id))),
    on(cardList, () => wrapped(accountCards)),
    on(isFeatureEnabled, () => wrapped({ featureName: 'TOKEN_FORWARDING', result: enabled })),
  );

/** Which of `named` each call went to, in the order they were made. */
const calledInOrder = (calls: FetchCall[], named: Record<string, Endpoint>) =>
  calls.map((call) => Object.entries(named).find(([, endpoint]) => callsTo([call], endpoint).length > 0)?.[0]);
const loadCalls = { details: detailsCall, cards: cardList, feature: isFeatureEnabled };
const accountHeaders = (calls: FetchCall[]) => calls.map((call) => call.headers['ebs-account-id']);

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
    const calls = serveAccount('a1', cards, true);

    await loadAccount('a1');

    expect(calledInOrder(calls, loadCalls)).toEqual(['details', 'cards', 'feature']);
    expect(callsTo(calls, detailsCall)[0]?.query).toEqual({});
    expect(callsTo(calls, cardList)[0]?.query).toEqual({});
    expect(callsTo(calls, isFeatureEnabled)[0]?.query).toEqual({ featureName: 'TOKEN_FORWARDING' });
    for (const call of calls) expect(call.method).toBe('GET');
    expect(accountHeaders(calls)).toEqual(['a1', 'a1', 'a1']);
  });

  it('makes the loaded account current, in memory and in localStorage, and notifies subscribers', async () => {
    serveAccount('a1', cards, true);
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
    serveAccount('a2', [], false);

    await loadAccount('a2');

    expect(getSession().currentAccount).toEqual({
      ...details('a2'),
      cards: [],
      features: { tokenForwardingEnabled: false },
    });
  });

  it('rejects with the server message and stores nothing when the details call fails', async () => {
    const refuse = (endpoint: Endpoint): EndpointStub =>
      on(endpoint, () => failed(404, 'Account not found', 'Not Found'));
    const calls = serveEndpoints(refuse(detailsCall), refuse(cardList), refuse(isFeatureEnabled));
    const listener = vi.fn();
    const unsubscribe = subscribe(listener);

    await expect(loadAccount('missing')).rejects.toThrow('Account not found');
    unsubscribe();

    expect(calledInOrder(calls, loadCalls)).toEqual(['details']);
    expect(getSession().currentAccount).toBeNull();
    expect(localStorage.getItem('currentAccount')).toBeNull();
    expect(listener).not.toHaveBeenCalled();
  });
});
