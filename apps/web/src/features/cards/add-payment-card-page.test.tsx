import { Messages, type PaymentCard } from '@ebs/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { type FetchCall, failed, renderPage, serveFetch, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { AddPaymentCardPage } from './add-payment-card-page';

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

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

type Handler = (call: FetchCall) => ReturnType<typeof wrapped> | undefined;

function start(cards: PaymentCard[], extra: Handler = () => undefined) {
  const calls = serveFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url === '/api/v1.0/payment/card' && call.method === 'GET') return wrapped(cards);
    if (call.url === '/api/v1.0/payment/local') return wrapped(intent);
    // loadAccount, after every change
    if (call.url === '/api/v1.0/account/details') return wrapped({ id: ACCOUNT, name: 'Main' });
    if (call.url.startsWith('/api/v1.0/feature/')) return wrapped({ featureName: 'TOKEN_FORWARDING', result: false });
    return undefined;
  });
  renderPage(PATH, '/account/:accountId/billings/addPaymentCard', <AddPaymentCardPage />);
  return calls;
}

const tileOf = async (last4: string) => (await screen.findByText(`•••• ${last4}`)).closest('.card-tile') as HTMLElement;

async function openMenu(last4: string) {
  fireEvent.click(within(await tileOf(last4)).getByRole('button', { name: 'Card settings' }));
  // Menus opened before stay in the document, hidden: the newest is the last one.
  return waitFor(() => screen.getAllByRole('menu').at(-1) as HTMLElement);
}

const posts = (calls: FetchCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);

// antd pages in jsdom are slow, more so when the suite runs in parallel.
setUpPageTests(toast);

describe('AddPaymentCardPage', () => {
  it('says what to do when the cards fail to load, and Try again shows them', async () => {
    let failures = 1;
    const calls = start([visa], (call) => {
      if (call.url !== '/api/v1.0/payment/card' || call.method !== 'GET' || failures === 0) return undefined;
      failures -= 1;
      return failed(503, 'Cards are resting');
    });

    expect(await screen.findByText(/Cards are resting Check your connection, then try again\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await tileOf('4242')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'GET' && c.url === '/api/v1.0/payment/card')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('shows one tile per card with brand, last four digits, expiry and the Default tag', async () => {
    start([visa, master]);

    const first = await tileOf('4242');
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
    const calls = start([visa, master], (call) =>
      call.url === '/api/v1.0/payment/card/default' ? wrapped({}) : undefined,
    );

    const menu = await openMenu('4242');
    expect(within(menu).getByRole('menuitem', { name: 'Set as default' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.keyDown(menu, { key: 'Escape' });

    fireEvent.click(within(await openMenu('4444')).getByRole('menuitem', { name: 'Set as default' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardSetDefault));
    expect(posts(calls, '/api/v1.0/payment/card/default')[0]?.body).toEqual({ cardId: 'c2' });
    // The list is read again and the current account reloaded.
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/v1.0/payment/card')).toHaveLength(3));
    expect(calls.some((c) => c.url === '/api/v1.0/account/details')).toBe(true);
  });

  it('refuses locally to remove the only card or the default card', async () => {
    const calls = start([visa, master]);

    fireEvent.click(within(await openMenu('4242')).getByRole('menuitem', { name: 'Remove' }));
    expect(toast.error).toHaveBeenLastCalledWith(Messages.defaultCard);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posts(calls, '/api/v1.0/payment/card/remove')).toHaveLength(0);
    cleanup();

    start([visa]);
    fireEvent.click(within(await openMenu('4242')).getByRole('menuitem', { name: 'Remove' }));
    expect(toast.error).toHaveBeenLastCalledWith(Messages.onlyCard);
  });

  it('removes another card after the Remove Payment Method dialog', async () => {
    const calls = start([visa, master], (call) =>
      call.url === '/api/v1.0/payment/card/remove' ? wrapped({}) : undefined,
    );

    fireEvent.click(within(await openMenu('4444')).getByRole('menuitem', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Remove Payment Method')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardRemoved));
    expect(posts(calls, '/api/v1.0/payment/card/remove')[0]?.body).toEqual({ cardId: 'c2' });
  });

  it("edits the expiry, starting from the card's month and year", async () => {
    const calls = start([visa, master], (call) =>
      call.url === '/api/v1.0/payment/card/update' ? wrapped({}) : undefined,
    );

    fireEvent.click(within(await tileOf('4242')).getByRole('button', { name: 'Edit card' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Edit Card')).toBeTruthy();
    expect(within(dialog).getByText('12')).toBeTruthy();
    expect(within(dialog).getByText('2030')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardUpdated));
    expect(posts(calls, '/api/v1.0/payment/card/update')[0]?.body).toEqual({
      cardId: 'c1',
      expireMonth: 12,
      expireYear: 2030,
    });
  });

  it('closes the dialog and shows the error when an update fails', async () => {
    start([visa, master], (call) =>
      call.url === '/api/v1.0/payment/card/update' ? failed(400, Messages.cardExpiryInPast) : undefined,
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
