import { endpoints } from '@ebs/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, getSession, setCurrentAccount } from '../../session/session-store';
import { accountDetails, TEST_ACCOUNT_ID } from '../../testing/account-details';
import { callsTo, on, renderPage, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { ServicesPage } from './services-page';

const ACCOUNT = TEST_ACCOUNT_ID;

const details = accountDetails();

/** The page with the feature stored as `stored` while the server's check answers `checked`. */
function open(stored: boolean, checked: boolean) {
  setCurrentAccount({ ...details, cards: [], features: { tokenForwardingEnabled: stored } });
  const calls = serveEndpoints(
    on(endpoints.usage.listResources, () =>
      wrapped([{ resourceName: 'RPC_API_BSC_TESTNET', description: '', unitPrice: 0.00002 }]),
    ),
    on(endpoints.accounts.isFeatureEnabled, ({ query }) =>
      query.featureName === 'TOKEN_FORWARDING'
        ? wrapped({ featureName: 'TOKEN_FORWARDING', result: checked })
        : undefined,
    ),
  );
  renderPage(`/account/${ACCOUNT}/services`, '/account/:accountId/services', <ServicesPage />);
  return calls;
}

const linkTo = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

setUpPageTests();
afterEach(clearSession);

describe('ServicesPage', () => {
  it('links the RPC card to the RPC page and shows Token Forwarding (Coming Soon) without a link', async () => {
    const calls = open(false, false);

    expect(linkTo('RPC')).toBe(`/account/${ACCOUNT}/services/rpc`);
    await waitFor(() => expect(callsTo(calls, endpoints.accounts.isFeatureEnabled)).toHaveLength(1));
    expect(callsTo(calls, endpoints.accounts.isFeatureEnabled)[0]?.query).toEqual({ featureName: 'TOKEN_FORWARDING' });
    const comingSoon = screen.getByText('Token Forwarding (Coming Soon)');
    expect(comingSoon.closest('a')).toBeNull();
    // How to get it: Contact Us, the request already written.
    const ask = screen.getByRole('link', { name: 'ask for it through Contact Us' });
    const target = new URL(ask.getAttribute('href') ?? '', 'http://console');
    expect(target.pathname).toBe(`/account/${ACCOUNT}/contactUs`);
    expect(target.searchParams.get('message')).toMatch(/^Please turn on Token Forwarding for this account\./);
    expect(screen.getAllByRole('link')).toHaveLength(4);
  });

  it('links the Webhooks card to the webhooks page', () => {
    open(false, false);

    expect(linkTo('Webhooks')).toBe(`/account/${ACCOUNT}/services/webhooks`);
  });

  it('leads to the Pricing page', () => {
    open(false, false);

    expect(linkTo('See each method’s compute units and what your last 30 days would cost')).toBe(
      `/account/${ACCOUNT}/services/pricing`,
    );
  });

  it('shows the unit price of each network by its name', async () => {
    open(false, false);
    const prices = (await screen.findByText('Prices', { selector: '.ant-card-head-title' })).closest(
      '.ant-card',
    ) as HTMLElement;
    const row = (await within(prices).findByText('BSC Testnet requests')).closest('tr') as HTMLElement;
    expect(within(row).getByText('0.00002 per compute unit')).toBeTruthy();
  });

  it('links the Token Forwarding card to the wallets page once the server says the feature is on, and stores it', async () => {
    open(false, true);

    await waitFor(() =>
      expect(linkTo('Token Forwarding')).toBe(`/account/${ACCOUNT}/services/token-forwarding/wallets`),
    );
    expect(screen.queryByText('Token Forwarding (Coming Soon)')).toBeNull();
    expect(getSession().currentAccount?.features.tokenForwardingEnabled).toBe(true);
    expect(JSON.parse(localStorage.getItem('currentAccount') ?? '{}').features).toEqual({
      tokenForwardingEnabled: true,
    });
  });

  it('takes the card away again when the feature has been turned off', async () => {
    open(true, false);

    expect(await screen.findByText('Token Forwarding (Coming Soon)')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Token Forwarding' })).toBeNull();
    expect(getSession().currentAccount?.features.tokenForwardingEnabled).toBe(false);
  });
});
