import { endpoints, type PaymentCard } from '@ebs/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountDetails } from '../../testing/account-details';
import { on, renderPage, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { BillingOverviewPage } from './billing-overview-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const card = (id: string, brand: string, last4: string, defaultPaymentMethod: boolean): PaymentCard => ({
  id,
  defaultPaymentMethod,
  card: { brand, last4, exp_month: 12, exp_year: 2030 },
});

setUpPageTests();

function open(cards: PaymentCard[]) {
  serveEndpoints(
    on(endpoints.cards.list, () => wrapped(cards)),
    on(endpoints.accounts.details, () => wrapped(accountDetails({ id: ACCOUNT }))),
  );
  renderPage(`/account/${ACCOUNT}/billings/overview`, '/account/:accountId/billings/overview', <BillingOverviewPage />);
}

describe('BillingOverviewPage: Add Payment Cards', () => {
  it('shows the cards the account has, the default first and marked, beside Add Card', async () => {
    open([card('c1', 'mastercard', '4444', false), card('c2', 'visa', '4242', true)]);
    const list = await screen.findByRole('list', { name: "The account's cards" });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Visa •••• 4242Default', 'Mastercard •••• 4444']);
    expect(screen.getByRole('button', { name: 'Add Card' })).toBeTruthy();
  });
});
