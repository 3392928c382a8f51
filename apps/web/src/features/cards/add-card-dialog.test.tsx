import { endpointList, endpoints, Messages } from '@ebs/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
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
import { AddCardDialog } from './add-card-dialog';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const intent = { client_secret: 'seti_1_secret', customerId: 'cus_1', setupIntentId: 'seti_1', accountId: ACCOUNT };
const { confirmSetupIntent, completeChallenge } = endpoints.processor;
const { attach } = endpoints.cards;

/** The dialog over stand-ins of the console API; `processor` are the local card processor's. */
function start(...processor: EndpointStub[]) {
  const onClose = vi.fn();
  let releaseIntent: () => void = () => {};
  const intentArrived = new Promise<void>((resolve) => {
    releaseIntent = resolve;
  });
  const calls = serveEndpoints(
    // The setup intent answers only when the test lets it.
    on(endpoints.cards.createSetupIntent, ({ params }) =>
      params.provider === 'local' ? intentArrived.then(() => wrapped(intent)) : undefined,
    ),
    ...processor,
    on(attach, () => wrapped({ cardId: 'c9' })),
    on(endpoints.cards.list, () => wrapped([])),
    on(endpoints.accounts.details, () => wrapped(accountDetails({ id: ACCOUNT, name: 'Main', accountName: 'Main' }))),
    on(endpoints.accounts.isFeatureEnabled, () => wrapped({ featureName: 'TOKEN_FORWARDING', result: false })),
  );
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
setUpPageTests();

describe('AddCardDialog', () => {
  it('keeps Add disabled until the setup intent has arrived and shows the note', async () => {
    const { releaseIntent } = start();

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
    const { calls, releaseIntent, onClose } = start(
      on(confirmSetupIntent, () => ({
        status: 200,
        body: {
          id: 'seti_1',
          status: 'requires_action',
          payment_method: 'pm_1',
          next_action: { type: 'challenge' },
        },
      })),
      on(completeChallenge, () => ({
        status: 200,
        body: { id: 'seti_1', status: 'succeeded', payment_method: 'pm_1' },
      })),
    );
    await act(async () => releaseIntent());
    await waitFor(() => expect(addButton().disabled).toBe(false));

    typeCard('4000002500003155');
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4000 0025 0000 3155');
    expect((screen.getByLabelText('Expiry') as HTMLInputElement).value).toBe('12/30');
    fireEvent.click(addButton());

    await waitFor(() => expect(callsTo(calls, confirmSetupIntent).map((c) => c.params.id)).toContain('seti_1'));
    // rc-dialog names every dialog's title "test-id" under test, so find this one by its title text.
    const challenge = (await screen.findByText('Confirm your card')).closest('[role="dialog"]') as HTMLElement;
    expect(within(challenge).getByText('Your bank asks you to confirm this card.')).toBeTruthy();
    const confirm = callsTo(calls, confirmSetupIntent).find((c) => c.params.id === 'seti_1');
    expect(confirm?.body).toEqual({
      client_secret: 'seti_1_secret',
      card: { number: '4000002500003155', exp_month: 12, exp_year: 2030, cvc: '123' },
    });
    expect(confirm?.headers.authorization).toBeUndefined();
    expect(confirm?.headers['ebs-account-id']).toBeUndefined();
    expect(confirm?.credentials).toBe('omit');

    fireEvent.click(within(challenge).getByRole('button', { name: 'Complete' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardAdded));
    expect(callsTo(calls, completeChallenge).find((c) => c.params.id === 'seti_1')?.body).toEqual({
      client_secret: 'seti_1_secret',
      approve: true,
    });
    const [attached] = callsTo(calls, attach);
    expect(attached?.body).toEqual({ cardToken: 'pm_1' });
    expect(attached?.headers['ebs-account-id']).toBe(ACCOUNT);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("shows the processor's own message when the card is declined, and attaches nothing", async () => {
    // The processor declines whatever it is asked.
    const { calls, releaseIntent, onClose } = start(
      ...[confirmSetupIntent, completeChallenge].map((step) =>
        on(step, () => failed(402, 'Your card was declined.', 'card_error')),
      ),
    );
    await act(async () => releaseIntent());
    await waitFor(() => expect(addButton().disabled).toBe(false));

    typeCard('4000000000000002');
    fireEvent.click(addButton());

    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(shownError()).toBe('Your card was declined.');
    expect(callsTo(calls, attach)).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(addButton().disabled).toBe(false));
  });

  it('shows the error when the setup intent cannot be created, and Add stays disabled', async () => {
    // Every call is refused (the public configuration too, so the local processor is the provider).
    serveEndpoints(
      ...endpointList().map(({ endpoint }) =>
        on(endpoint, () => failed(400, 'Cards are handled by the stripe card payment provider.')),
      ),
    );
    renderPage('/a', '/a', <AddCardDialog accountId={ACCOUNT} onClose={vi.fn()} />);

    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(shownError()).toBe('Cards are handled by the stripe card payment provider.');
    expect(addButton().disabled).toBe(true);
  });
});
