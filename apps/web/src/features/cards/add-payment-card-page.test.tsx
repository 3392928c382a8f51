import { endpoints, Messages, type PaymentCard } from '@ebs/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { accountDetails } from '../../testing/account-details';
import {
  callsTo,
  type EndpointStub,
  failed,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { AddPaymentCardPage } from './add-payment-card-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const PATH = `/account/${ACCOUNT}/billings/addPaymentCard`;
const visa: PaymentCard = {
  id: 'c1',
  defaultPaymentMethod: true,
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
};
const master: PaymentCard = {
  id: 'c2',
  defaultPaymentMethod: false,
  card: { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2027 },
};
const intent = { client_secret: 'seti_x_secret', customerId: 'cus_1', setupIntentId: 'seti_1', accountId: ACCOUNT };

const { list, setDefault, remove, updateExpiry } = endpoints.cards;

/** The page over stand-ins of its reads; the stubs in `first` may answer a call before them (a change, say). */
function start(cards: PaymentCard[], ...first: EndpointStub[]) {
  const calls = serveEndpoints(
    ...first,
    on(list, () => wrapped(cards)),
    on(endpoints.cards.createSetupIntent, ({ params }) => (params.provider === 'local' ? wrapped(intent) : undefined)),
    // loadAccount, after every change
    on(endpoints.accounts.details, () => wrapped(accountDetails({ id: ACCOUNT, name: 'Main', accountName: 'Main' }))),
    on(endpoints.accounts.isFeatureEnabled, () => wrapped({ featureName: 'TOKEN_FORWARDING', result: false })),
  );
  renderPage(PATH, '/account/:accountId/billings/addPaymentCard', <AddPaymentCardPage />);
  return calls;
}

const tileOf = async (last4: string) => (await screen.findByText(`•••• ${last4}`)).closest('.card-tile') as HTMLElement;

async function openMenu(last4: string) {
  fireEvent.click(within(await tileOf(last4)).getByRole('button', { name: 'Card settings' }));
  // Menus opened before stay in the document, hidden: the newest is the last one.
  return waitFor(() => screen.getAllByRole('menu').at(-1) as HTMLElement);
}

// antd pages in jsdom are slow, more so when the suite runs in parallel.
setUpPageTests();

describe('AddPaymentCardPage', () => {
  it('says what to do when the cards fail to load, and Try again shows them', async () => {
    let failures = 1;
    const calls = start(
      [visa],
      on(list, () => {
        if (failures === 0) return undefined;
        failures -= 1;
        return failed(503, 'Cards are resting');
      }),
    );

    expect(await screen.findByText(/Cards are resting Check your connection, then try again\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await tileOf('4242')).toBeTruthy();
    expect(callsTo(calls, list)).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('shows one tile per card with brand, last four digits, expiry and the Default tag', async () => {
    start([visa, master]);

    const first = await tileOf('4242');
    expect(screen.getByRole('heading', { name: 'Add Payment Cards', level: 2 })).toBeTruthy();
    expect(within(first).getByText('Visa')).toBeTruthy();
    expect(within(first).getByText('12/2030')).toBeTruthy();
    expect(within(first).getByText('Default')).toBeTruthy();
    const second = await tileOf('4444');
    expect(within(second).getByText('Mastercard')).toBeTruthy();
    expect(within(second).getByText('03/2027')).toBeTruthy();
    expect(within(second).queryByText('Default')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add Card' })).toBeTruthy();
  });

  it('disables Set as default on the default card and sets another card as default', async () => {
    const calls = start(
      [visa, master],
      on(setDefault, () => wrapped({})),
    );

    const menu = await openMenu('4242');
    expect(within(menu).getByRole('menuitem', { name: 'Set as default' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.keyDown(menu, { key: 'Escape' });

    fireEvent.click(within(await openMenu('4444')).getByRole('menuitem', { name: 'Set as default' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardSetDefault));
    expect(callsTo(calls, setDefault)[0]?.body).toEqual({ cardId: 'c2' });
    // The list is read again and the current account reloaded.
    await waitFor(() => expect(callsTo(calls, list)).toHaveLength(3));
    expect(callsTo(calls, endpoints.accounts.details)).not.toHaveLength(0);
  });

  it('refuses locally to remove the only card or the default card', async () => {
    const calls = start([visa, master]);

    fireEvent.click(within(await openMenu('4242')).getByRole('menuitem', { name: 'Remove' }));
    expect(toast.error).toHaveBeenLastCalledWith(Messages.defaultCard);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsTo(calls, remove)).toHaveLength(0);
    cleanup();

    start([visa]);
    fireEvent.click(within(await openMenu('4242')).getByRole('menuitem', { name: 'Remove' }));
    expect(toast.error).toHaveBeenLastCalledWith(Messages.onlyCard);
  });

  it('removes another card after the Remove Payment Method dialog', async () => {
    const calls = start(
      [visa, master],
      on(remove, () => wrapped({})),
    );

    fireEvent.click(within(await openMenu('4444')).getByRole('menuitem', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Remove Payment Method')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardRemoved));
    expect(callsTo(calls, remove)[0]?.body).toEqual({ cardId: 'c2' });
  });

  it("edits the expiry, starting from the card's month and year", async () => {
    const calls = start(
      [visa, master],
      on(updateExpiry, () => wrapped({})),
    );

    fireEvent.click(within(await tileOf('4242')).getByRole('button', { name: 'Edit card' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Edit Card')).toBeTruthy();
    expect(within(dialog).getByText('12')).toBeTruthy();
    expect(within(dialog).getByText('2030')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardUpdated));
    expect(callsTo(calls, updateExpiry)[0]?.body).toEqual({
      cardId: 'c1',
      expireMonth: 12,
      expireYear: 2030,
    });
  });

  it('closes the dialog and shows the error when an update fails', async () => {
    start(
      [visa, master],
      on(updateExpiry, () => failed(400, Messages.cardExpiryInPast)),
    );

    fireEvent.click(within(await tileOf('4444')).getByRole('button', { name: 'Edit card' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Update' }));

    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect((vi.mocked(toast.error).mock.calls.at(-1)?.[0] as Error | undefined)?.message).toBe(
      Messages.cardExpiryInPast,
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
