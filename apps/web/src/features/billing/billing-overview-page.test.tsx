import { endpoints, type PaymentCard } from '@ebs/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountDetails } from '../../testing/account-details';
import {
  type EndpointStub,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { BillingOverviewPage } from './billing-overview-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const card = (id: string, brand: string, last4: string, defaultPaymentMethod: boolean): PaymentCard => ({
  id,
  defaultPaymentMethod,
  card: { brand, last4, exp_month: 12, exp_year: 2030 },
});

setUpPageTests();

function open(cards: PaymentCard[], ...first: EndpointStub[]) {
  serveEndpoints(
    ...first,
    on(endpoints.cards.list, () => wrapped(cards)),
    on(endpoints.accounts.details, () => wrapped(accountDetails({ id: ACCOUNT }))),
  );
  renderPage(`/account/${ACCOUNT}/billings/overview`, '/account/:accountId/billings/overview', <BillingOverviewPage />);
}

describe('BillingOverviewPage: Add Payment Cards', () => {
  it('shows the cards the account has, the default first and marked, beside Add Card', async () => {
    open([card('c1', 'mastercard', '4444', false), card('c2', 'visa', '4242', true)]);
    const list = await screen.findByRole('list', { name: "The account's cards" });
    expect(screen.getByRole('heading', { name: 'Billing Overview', level: 2 })).toBeTruthy();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Visa •••• 4242Default', 'Mastercard •••• 4444']);
    expect(screen.getByRole('button', { name: 'Add Card' })).toBeTruthy();
  });
});

describe("BillingOverviewPage: prices and this month's cost", () => {
  const usageRecord = (resourceName: string, usage: number, price: number, status: 'PENDING' | 'BILLED') => ({
    id: `${resourceName}-${status}`,
    resourceName,
    date: '2026-11-02',
    usage,
    status,
    price,
    unitPrice: price / usage,
    computeUnits: resourceName.startsWith('TOKEN_FORWARDING') ? null : usage,
    apiKeyId: null,
  });

  it('lists each unit price by network name, the used ones first with their usage and cost, and what is not posted', async () => {
    open(
      [],
      on(endpoints.usage.listResources, () =>
        wrapped([
          { resourceName: 'RPC_API_POLYGON_TESTNET', description: '', unitPrice: 0.00002 },
          { resourceName: 'RPC_API_ETHEREUM_MAINNET', description: '', unitPrice: 0.00003 },
          { resourceName: 'TOKEN_FORWARDING_ETHEREUM_MAINNET', description: '', unitPrice: 0.05 },
        ]),
      ),
      on(endpoints.usage.list, ({ query }) =>
        query.order === 'desc' && query.dateStart?.endsWith('-01')
          ? wrapped({
              accountResourceUsage: [
                usageRecord('RPC_API_ETHEREUM_MAINNET', 1000, 0.03, 'BILLED'),
                usageRecord('TOKEN_FORWARDING_ETHEREUM_MAINNET', 1, 0.05, 'PENDING'),
              ],
              totalCount: 2,
            })
          : undefined,
      ),
    );
    fireEvent.click(await screen.findByRole('tab', { name: 'Prices' }));
    const prices = (await screen.findByRole('tabpanel', { name: 'Prices' })) as HTMLElement;
    expect(
      await within(prices).findByText(
        'This month so far: 0.08 USD, of which 0.05 USD is not yet posted to the ledger (usage posts once a day).',
      ),
    ).toBeTruthy();
    const rows = within(prices)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Ethereum Mainnet requestsRPC API ETHEREUM MAINNET', '0.00003 per compute unit', '1,000', '0.03000'],
      ['Ethereum Mainnet token forwardsTOKEN FORWARDING ETHEREUM MAINNET', '0.05 per forward', '1', '0.05000'],
      ['Polygon Testnet requestsRPC API POLYGON TESTNET', '0.00002 per compute unit', '0', '0.00000'],
    ]);
  });
});
