import { endpoints, Messages, type PaymentCard } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { accountDetails, NO_SPENDING_CAP } from '../../testing/account-details';
import {
  callsTo,
  type EndpointStub,
  type FetchCall,
  failed,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { BuyCreditsPage } from './buy-credits-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const visa = (defaultPaymentMethod: boolean): PaymentCard => ({
  id: 'c1',
  defaultPaymentMethod,
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
});
const autoDeposit = { autoDepositEnabled: false, minBalance: null, autoDepositAmount: null };

const { deposit, updateAccountSettings } = endpoints.billing;

/** The page over stand-ins of its reads; the stubs in `first` may answer a call before them (a deposit, say). */
function start(cards: PaymentCard[], ...first: EndpointStub[]) {
  const calls = serveEndpoints(
    ...first,
    on(endpoints.cards.list, () => wrapped(cards)),
    on(endpoints.settings.read, ({ query }) =>
      query.name === 'DEPOSIT' ? wrapped({ name: 'DEPOSIT', settings: { minAmount: 5 } }) : undefined,
    ),
    on(endpoints.accounts.details, () =>
      wrapped(accountDetails({ id: ACCOUNT, setting: { autoDeposit, spendingCap: NO_SPENDING_CAP } })),
    ),
  );
  renderPage(`/account/${ACCOUNT}/billings/buyCredits`, '/account/:accountId/billings/buyCredits', <BuyCreditsPage />);
  return calls;
}

const card = async (title: string) => (await screen.findByText(title)).closest('.ant-card') as HTMLElement;

async function pay(amount: string) {
  const oneTime = await card('Make One Time Pay');
  // The card list must have arrived before Pay is enabled.
  await waitFor(() =>
    expect(within(oneTime).getByRole('button', { name: 'Pay' }).hasAttribute('disabled')).toBe(false),
  );
  fireEvent.change(within(oneTime).getByRole('spinbutton'), { target: { value: amount } });
  fireEvent.click(within(oneTime).getByRole('button', { name: 'Pay' }));
}

// antd pages in jsdom are slow, more so when the suite runs in parallel.
setUpPageTests();

describe('BuyCreditsPage: Make One Time Pay', () => {
  it('refuses a typed or pasted decimal separator with "Whole US dollars only." and never shifts the amount', async () => {
    start([visa(true)]);
    const oneTime = await card('Make One Time Pay');
    const field = within(oneTime).getByRole('spinbutton') as HTMLInputElement;
    fireEvent.change(field, { target: { value: '12' } });
    expect(field.value).toBe('$ 12');

    // A key the field refuses is prevented: fireEvent answers false.
    expect(fireEvent.keyDown(field, { key: '.' })).toBe(false);
    expect(within(oneTime).getByRole('alert').textContent).toBe('Whole US dollars only.');
    // The digits after it are its cents: refused too, the message stays.
    expect(fireEvent.keyDown(field, { key: '5' })).toBe(false);
    expect(fireEvent.keyDown(field, { key: '0' })).toBe(false);
    expect(within(oneTime).getByRole('alert').textContent).toBe('Whole US dollars only.');
    // Editing the field takes digits again.
    expect(fireEvent.keyDown(field, { key: 'Backspace' })).toBe(true);
    expect(within(oneTime).queryByRole('alert')).toBeNull();
    expect(fireEvent.keyDown(field, { key: '5' })).toBe(true);

    expect(fireEvent.keyDown(field, { key: ',' })).toBe(false);
    expect(within(oneTime).getByRole('alert').textContent).toBe('Whole US dollars only.');
    const paste = (text: string) => fireEvent.paste(field, { clipboardData: { getData: () => text } });
    paste('0.5');
    expect(within(oneTime).getByRole('alert').textContent).toBe('Whole US dollars only.');
    // What was typed before stays: the cents never become dollars.
    expect(field.value).toBe('$ 12');
    paste('1,000');
    expect(within(oneTime).queryByRole('alert')).toBeNull();
  });

  it('does not keep Pay spinning behind the confirmation', async () => {
    start([visa(true)]);
    await pay('$ 30');
    await screen.findByText('$30.00 USD');
    const oneTime = await card('Make One Time Pay');
    expect(within(oneTime).getByRole('button', { name: 'Pay' }).className).not.toContain('ant-btn-loading');
  });

  it('confirms with the default card and deposits once with an idempotency key', async () => {
    const calls = start(
      [visa(true)],
      on(deposit, () =>
        wrapped({ transactionId: 't1', status: 'COMPLETED', amount: 25, receiptUrl: '/r' }, Messages.paymentProcessing),
      ),
    );

    await pay('$ 25');
    expect(screen.getByRole('heading', { name: 'Buy Credits', level: 2 })).toBeTruthy();

    const modal = (await screen.findByText('$25.00 USD')).closest('[role="dialog"]') as HTMLElement;
    expect(within(modal).getByText('•••• 4242')).toBeTruthy();
    expect(within(modal).getByText('Default')).toBeTruthy();
    expect(within(modal).getByText('December 2030')).toBeTruthy();
    expect(within(modal).getByText('Visa')).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'Deposit' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.paymentProcessing));
    const deposits = callsTo(calls, deposit);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]?.body).toEqual({ cardId: 'c1', depositAmount: 25 });
    expect(deposits[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByText('$25.00 USD')).toBeNull());
  });

  it('after the deposit, says what was paid and the available credit the account now has', async () => {
    const account = { balance: 40, amountPending: 0 };
    start(
      [visa(true)],
      on(deposit, ({ body }) => {
        account.balance += body.depositAmount;
        return wrapped({ transactionId: 't1', status: 'COMPLETED', amount: 25, receiptUrl: '/r' });
      }),
      on(endpoints.accounts.details, () =>
        wrapped(accountDetails({ id: ACCOUNT, ...account, setting: { autoDeposit, spendingCap: NO_SPENDING_CAP } })),
      ),
    );
    await pay('$ 25');
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deposit' }));

    const notice = await screen.findByText('Paid $25 with Visa •••• 4242. Available credit is now 65.00 USD.');
    expect(notice.closest('[role="status"]')).toBeTruthy();
    const link = within(notice.closest('.ant-alert') as HTMLElement).getByRole('link', {
      name: 'See it in Billing Overview',
    });
    expect(link.getAttribute('href')).toBe(`/account/${ACCOUNT}/billings/overview`);
  });

  it('closes the confirmation and shows the error when the deposit fails', async () => {
    start(
      [visa(true)],
      on(deposit, () => failed(402, 'Your card has insufficient funds.', 'card_error')),
    );

    await pay('30');
    fireEvent.click(await screen.findByRole('button', { name: 'Deposit' }));

    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect((vi.mocked(toast.error).mock.calls.at(-1)?.[0] as Error | undefined)?.message).toBe(
      'Your card has insufficient funds.',
    );
    await waitFor(() => expect(screen.queryByText('$30.00 USD')).toBeNull());
  });

  it('keeps the amount typed and names what is wrong: 0, below the DEPOSIT minimum, above 99999', async () => {
    const calls = start([visa(true)]);

    await pay('');
    expect(await screen.findByText(Messages.depositAmountRequired)).toBeTruthy();

    // What was typed stays in the box, even once left; Pay names the problem and opens nothing.
    const oneTime = await card('Make One Time Pay');
    const input = within(oneTime).getByRole('spinbutton') as HTMLInputElement;
    for (const [typed, shown, message] of [
      ['0', '$ 0', Messages.depositAmountRequired],
      ['3', '$ 3', Messages.depositMin(5)],
      ['100000', '$ 100,000', Messages.depositMax],
    ] as const) {
      fireEvent.change(input, { target: { value: typed } });
      fireEvent.blur(input);
      fireEvent.click(within(oneTime).getByRole('button', { name: 'Pay' }));
      expect(await within(oneTime).findByText(message)).toBeTruthy();
      expect(input.value).toBe(shown);
      expect(screen.queryByRole('dialog')).toBeNull();
    }
    expect(callsTo(calls, deposit)).toHaveLength(0);
  });

  it('warns when no card is the default', async () => {
    start([visa(false)]);

    await pay('25');

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(Messages.setDefaultCard));
    expect(screen.queryByText('$25.00 USD')).toBeNull();
  });

  it('without a card, shows the non-closable dialog whose Add opens the add-card page', async () => {
    start([]);

    await pay('25');

    const modal = (await screen.findByText('This account does not have a payment card.')).closest(
      '[role="dialog"]',
    ) as HTMLElement;
    expect(within(modal).queryByRole('button', { name: /close|cancel/i })).toBeNull();
    fireEvent.click(within(modal).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(`Elsewhere: /account/${ACCOUNT}/billings/addPaymentCard`)).toBeTruthy();
  });
});

describe('BuyCreditsPage: Auto Pay', () => {
  const settingsCall = (calls: FetchCall[]) => callsTo(calls, updateAccountSettings);

  it('saves the toggle at once', async () => {
    const calls = start(
      [visa(true)],
      on(updateAccountSettings, () => wrapped({ ...autoDeposit, autoDepositEnabled: true })),
    );

    const toggle = await screen.findByRole('switch', { name: 'Auto Pay' });
    await waitFor(() => expect(toggle.hasAttribute('disabled')).toBe(false));
    fireEvent.click(toggle);

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Thanks for enabling auto pay.'));
    expect(settingsCall(calls)[0]?.body).toEqual({ settingName: 'autoDeposit', fields: { autoDepositEnabled: true } });
  });

  it('saves the threshold (default 1) and the amount with Save Auto Pay, and never changes what was typed', async () => {
    const calls = start(
      [visa(true)],
      on(updateAccountSettings, () => wrapped({ ...autoDeposit, minBalance: 1, autoDepositAmount: 20 })),
    );

    const autoPay = await card('Auto Pay');
    const threshold = (await within(autoPay).findByLabelText('Threshold (USD)')) as HTMLInputElement;
    expect(threshold.value).toBe('$ 1');
    fireEvent.click(within(autoPay).getByRole('button', { name: 'Save Auto Pay' }));
    expect(await within(autoPay).findByText(Messages.depositAmountRequired)).toBeTruthy();

    // Out-of-range values stay as typed and are named, and nothing is saved.
    fireEvent.change(threshold, { target: { value: '100000' } });
    fireEvent.blur(threshold);
    fireEvent.change(within(autoPay).getByLabelText('Amount (USD)'), { target: { value: '3' } });
    fireEvent.click(within(autoPay).getByRole('button', { name: 'Save Auto Pay' }));
    expect(await within(autoPay).findByText(Messages.depositMax)).toBeTruthy();
    expect(await within(autoPay).findByText(Messages.depositMin(5))).toBeTruthy();
    expect(threshold.value).toBe('$ 100,000');
    expect(settingsCall(calls)).toHaveLength(0);

    fireEvent.change(threshold, { target: { value: '1' } });
    fireEvent.change(within(autoPay).getByLabelText('Amount (USD)'), { target: { value: '20' } });
    // Both fields refuse cents where the user sees it, and keep their amounts.
    fireEvent.keyDown(threshold, { key: '.' });
    fireEvent.keyDown(within(autoPay).getByLabelText('Amount (USD)'), { key: ',' });
    expect(
      within(autoPay)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual(['Whole US dollars only.', 'Whole US dollars only.']);
    fireEvent.click(within(autoPay).getByRole('button', { name: 'Save Auto Pay' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Your auto pay setting has been saved.'));
    expect(settingsCall(calls)[0]?.body).toEqual({
      settingName: 'autoDeposit',
      fields: { minBalance: 1, autoDepositAmount: 20 },
    });
  });

  it('states the saved rule in a sentence with the card, and says it is off while the switch is off', async () => {
    let saved = { ...autoDeposit };
    start(
      [visa(true)],
      on(updateAccountSettings, ({ body }) => {
        saved = { ...saved, ...(body as { fields: Partial<typeof saved> }).fields };
        return wrapped(saved);
      }),
      on(endpoints.accounts.details, () =>
        wrapped(accountDetails({ id: ACCOUNT, setting: { autoDeposit: saved, spendingCap: NO_SPENDING_CAP } })),
      ),
    );
    const autoPay = await card('Auto Pay');
    const rule = () => within(autoPay).getByRole('status').textContent;
    await waitFor(() =>
      expect(rule()).toBe(
        'Set an amount and save to turn this into a rule.Auto Pay is off: nothing is charged until you turn it on.',
      ),
    );
    fireEvent.change(within(autoPay).getByLabelText('Threshold (USD)'), { target: { value: '5' } });
    fireEvent.change(within(autoPay).getByLabelText('Amount (USD)'), { target: { value: '1000' } });
    fireEvent.click(within(autoPay).getByRole('button', { name: 'Save Auto Pay' }));
    // Saved with the switch off: the page says what was saved, and that it is off.
    await waitFor(() =>
      expect(rule()).toBe(
        'When available credit falls below $5, charge $1,000 to Visa •••• 4242.' +
          'Auto Pay is off: nothing is charged until you turn it on.',
      ),
    );
    fireEvent.click(within(autoPay).getByRole('switch', { name: 'Auto Pay' }));
    await waitFor(() => expect(rule()).toBe('When available credit falls below $5, charge $1,000 to Visa •••• 4242.'));
  });
});
