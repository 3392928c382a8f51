import { Messages } from '@ebs/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import {
  type FetchCall,
  failed,
  type Reply,
  renderPage,
  serveFetch,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { AddCardDialog } from './add-card-dialog';

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const intent = { client_secret: 'seti_1_secret', customerId: 'cus_1', setupIntentId: 'seti_1', accountId: ACCOUNT };
const CONFIRM = '/processor/v1/setup_intents/seti_1/confirm';
const CHALLENGE = '/processor/v1/setup_intents/seti_1/challenge';

function start(processor: (call: FetchCall) => Reply | undefined, onClose = vi.fn()) {
  let releaseIntent: () => void = () => {};
  const intentArrived = new Promise<void>((resolve) => {
    releaseIntent = resolve;
  });
  const calls = serveFetch((call) => {
    // The setup intent answers only when the test lets it.
    if (call.url === '/api/v1.0/payment/local') return intentArrived.then(() => wrapped(intent));
    if (call.url.startsWith('/processor/')) return processor(call);
    if (call.url === '/api/v1.0/payment/card' && call.method === 'POST') return wrapped({ cardId: 'c9' });
    if (call.url === '/api/v1.0/payment/card') return wrapped([]);
    if (call.url === '/api/v1.0/account/details') return wrapped({ id: ACCOUNT, name: 'Main' });
    if (call.url.startsWith('/api/v1.0/feature/')) return wrapped({ featureName: 'TOKEN_FORWARDING', result: false });
    return undefined;
  });
  renderPage('/a', '/a', <AddCardDialog accountId={ACCOUNT} onClose={onClose} />);
  return { calls, releaseIntent, onClose };
}

const dialog = () => screen.getByText('Add Payment Method').closest('[role="dialog"]') as HTMLElement;
const addButton = () => within(dialog()).getByRole('button', { name: 'Add' }) as HTMLButtonElement;

/** The text of the last error shown. */
const shownError = () => {
  const error = vi.mocked(toast.error).mock.calls.at(-1)?.[0];
  return error instanceof Error ? error.message : String(error);
};

function typeCard(number: string, expiry = '1230', cvc = '123') {
  fireEvent.change(screen.getByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(screen.getByLabelText('Expiry'), { target: { value: expiry } });
  fireEvent.change(screen.getByLabelText('CVC'), { target: { value: cvc } });
}

// antd pages in jsdom are slow, more so when the suite runs in parallel.
setUpPageTests(toast);

describe('AddCardDialog', () => {
  it('keeps Add disabled until the setup intent has arrived and shows the note', async () => {
    const { releaseIntent } = start(() => undefined);

    expect(addButton().disabled).toBe(true);
    expect(
      screen.getByText(
        'Your card will only be charged when auto payments are set up or a one-time payment is confirmed.',
      ),
    ).toBeTruthy();
    await act(async () => releaseIntent());
    await waitFor(() => expect(addButton().disabled).toBe(false));
  });

  it('confirms the card with the processor directly, passes the challenge and attaches the card', async () => {
    const { calls, releaseIntent, onClose } = start((call) =>
      call.url === CONFIRM
        ? {
            status: 200,
            body: {
              id: 'seti_1',
              status: 'requires_action',
              payment_method: 'pm_1',
              next_action: { type: 'challenge' },
            },
          }
        : { status: 200, body: { id: 'seti_1', status: 'succeeded', payment_method: 'pm_1' } },
    );
    await act(async () => releaseIntent());
    await waitFor(() => expect(addButton().disabled).toBe(false));

    typeCard('4000002500003155');
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4000 0025 0000 3155');
    expect((screen.getByLabelText('Expiry') as HTMLInputElement).value).toBe('12/30');
    fireEvent.click(addButton());

    await waitFor(() => expect(calls.map((c) => c.url)).toContain(CONFIRM));
    // rc-dialog names every dialog's title "test-id" under test, so find this one by its title text.
    const challenge = (await screen.findByText('Confirm your card')).closest('[role="dialog"]') as HTMLElement;
    expect(within(challenge).getByText('Your bank asks you to confirm this card.')).toBeTruthy();
    const confirm = calls.find((c) => c.url === CONFIRM);
    expect(confirm?.body).toEqual({
      client_secret: 'seti_1_secret',
      card: { number: '4000002500003155', exp_month: 12, exp_year: 2030, cvc: '123' },
    });
    expect(confirm?.headers.authorization).toBeUndefined();
    expect(confirm?.headers['ebs-account-id']).toBeUndefined();
    expect(confirm?.credentials).toBe('omit');

    fireEvent.click(within(challenge).getByRole('button', { name: 'Complete' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardAdded));
    expect(calls.find((c) => c.url === CHALLENGE)?.body).toEqual({ client_secret: 'seti_1_secret', approve: true });
    const attach = calls.find((c) => c.url === '/api/v1.0/payment/card' && c.method === 'POST');
    expect(attach?.body).toEqual({ cardToken: 'pm_1' });
    expect(attach?.headers['ebs-account-id']).toBe(ACCOUNT);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("shows the processor's own message when the card is declined, and attaches nothing", async () => {
    const { calls, releaseIntent, onClose } = start(() => failed(402, 'Your card was declined.', 'card_error'));
    await act(async () => releaseIntent());
    await waitFor(() => expect(addButton().disabled).toBe(false));

    typeCard('4000000000000002');
    fireEvent.click(addButton());

    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(shownError()).toBe('Your card was declined.');
    expect(calls.some((c) => c.url === '/api/v1.0/payment/card' && c.method === 'POST')).toBe(false);
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(addButton().disabled).toBe(false));
  });

  it('shows the error when the setup intent cannot be created, and Add stays disabled', async () => {
    serveFetch(() => failed(400, 'Cards are handled by the stripe card payment provider.'));
    renderPage('/a', '/a', <AddCardDialog accountId={ACCOUNT} onClose={vi.fn()} />);

    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(shownError()).toBe('Cards are handled by the stripe card payment provider.');
    expect(addButton().disabled).toBe(true);
  });
});
