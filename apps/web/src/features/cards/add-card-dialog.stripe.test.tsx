import { endpoints, Messages, type PublicConfig } from '@ebs/contract';
import { loadStripe } from '@stripe/stripe-js/pure';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { accountDetails } from '../../testing/account-details';
import {
  callsTo,
  type FetchCall,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { AddCardDialog } from './add-card-dialog';

// Stripe.js itself comes from Stripe's servers; here loadStripe answers a stand-in that records calls.
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: vi.fn() }));

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const { createSetupIntent } = endpoints.cards;
// Stripe.js is loaded once per publishable key: each test has its own key, so its own load.
let publishableKey = '';
let tests = 0;
const intent = { client_secret: 'seti_9_secret_x', customerId: 'cus_9', setupIntentId: 'seti_9', accountId: ACCOUNT };
const config = (cardProvider: 'local' | 'stripe'): PublicConfig => ({
  appEnv: 'dev',
  docsUrl: 'https://docs.example/',
  apiBase: '/api',
  productName: 'EBS',
  cardProvider,
  ...(cardProvider === 'stripe' ? { stripePublishableKey: publishableKey } : {}),
});

/** A Stripe.js instance as react-stripe-js uses it: elements, a Payment Element whose events the test fires. */
function fakeStripe(confirmSetup: () => Promise<unknown>) {
  const handlers = new Map<string, () => void>();
  const element = {
    mount: vi.fn(),
    destroy: vi.fn(),
    update: vi.fn(),
    focus: vi.fn(),
    on: vi.fn((event: string, handler: () => void) => handlers.set(event, handler)),
    off: vi.fn(),
  };
  const elements = {
    create: vi.fn((_type: string, _options?: object) => element),
    update: vi.fn(),
    getElement: vi.fn(() => element),
  };
  const stripe = {
    elements: vi.fn(() => elements),
    confirmSetup: vi.fn(confirmSetup),
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    confirmCardPayment: vi.fn(),
    registerAppInfo: vi.fn(),
    _registerWrapper: vi.fn(),
  };
  return { stripe, elements, element, fire: (event: string) => act(() => handlers.get(event)?.()) };
}

function start(cardProvider: 'local' | 'stripe', confirmSetup: () => Promise<unknown> = async () => ({})) {
  const fake = fakeStripe(confirmSetup);
  tests += 1;
  publishableKey = `pk_test_51Console${tests}`;
  let releaseStripe: () => void = () => {};
  vi.mocked(loadStripe).mockReset();
  vi.mocked(loadStripe).mockImplementation(
    () =>
      new Promise((resolve) => {
        releaseStripe = () => resolve(fake.stripe as never);
      }),
  );
  const onClose = vi.fn();
  const calls = serveEndpoints(
    on(endpoints.system.config, () => wrapped(config(cardProvider))),
    on(createSetupIntent, ({ params }) => (params.provider === cardProvider ? wrapped(intent) : undefined)),
    on(endpoints.cards.attach, () => wrapped({ cardId: 'c9' })),
    on(endpoints.cards.list, () => wrapped([])),
    on(endpoints.accounts.details, () => wrapped(accountDetails({ id: ACCOUNT, name: 'Main', accountName: 'Main' }))),
    on(endpoints.accounts.isFeatureEnabled, () => wrapped({ featureName: 'TOKEN_FORWARDING', result: false })),
  );
  renderPage('/a', '/a', <AddCardDialog accountId={ACCOUNT} onClose={onClose} />);
  return { ...fake, calls, onClose, releaseStripe: () => act(async () => releaseStripe()) };
}

const dialog = () => screen.getByText('Add Payment Method').closest('[role="dialog"]') as HTMLElement;
const addButton = () => within(dialog()).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
const attachCalls = (calls: FetchCall[]) => callsTo(calls, endpoints.cards.attach);
/** The card providers whose setup intent was asked for. */
const intentProviders = (calls: FetchCall[]) => callsTo(calls, createSetupIntent).map((c) => c.params.provider);

/** Stripe loaded, the setup intent in, the Payment Element mounted and ready. */
async function ready(page: ReturnType<typeof start>) {
  await waitFor(() => expect(loadStripe).toHaveBeenCalledWith(publishableKey));
  await page.releaseStripe();
  await waitFor(() => expect(page.element.mount).toHaveBeenCalled());
  page.fire('ready');
  await waitFor(() => expect(addButton().disabled).toBe(false));
}

setUpPageTests();

describe('AddCardDialog with Stripe as the card provider', () => {
  it('loads Stripe with the publishable key and keeps Add disabled until Stripe’s element is ready', async () => {
    const page = start('stripe');
    await waitFor(() => expect(loadStripe).toHaveBeenCalledWith(publishableKey));
    await waitFor(() => expect(intentProviders(page.calls)).toContain('stripe'));
    expect(addButton().disabled).toBe(true);

    await page.releaseStripe();
    await waitFor(() => expect(page.element.mount).toHaveBeenCalled());
    expect(page.stripe.elements).toHaveBeenCalledWith({ clientSecret: 'seti_9_secret_x' });
    expect(page.elements.create.mock.calls.map((call) => call[0])).toEqual(['payment']);
    // The card fields are Stripe's: none of the local processor's are shown.
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(addButton().disabled).toBe(true);

    page.fire('ready');
    await waitFor(() => expect(addButton().disabled).toBe(false));
    expect(loadStripe).toHaveBeenCalledTimes(1);
    // Ready, Stripe's card fields take the focus, as the built-in entry's card number does.
    expect(page.element.focus).toHaveBeenCalledTimes(1);
  });

  it('confirms with Stripe, redirecting only if required, and attaches the payment method', async () => {
    const page = start('stripe', async () => ({
      setupIntent: { id: 'seti_9', status: 'succeeded', payment_method: 'pm_9' },
    }));
    await ready(page);

    fireEvent.click(addButton());

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.cardAdded));
    expect(page.stripe.confirmSetup).toHaveBeenCalledWith({
      elements: page.elements,
      redirect: 'if_required',
      confirmParams: { return_url: window.location.href },
    });
    const attach = attachCalls(page.calls);
    expect(attach.map((c) => c.body)).toEqual([{ cardToken: 'pm_9' }]);
    expect(attach[0]?.headers['ebs-account-id']).toBe(ACCOUNT);
    await waitFor(() => expect(page.onClose).toHaveBeenCalled());
  });

  it('shows Stripe’s own message when the card is refused, and attaches nothing', async () => {
    const page = start('stripe', async () => ({
      error: { type: 'card_error', code: 'card_declined', message: 'Your card has insufficient funds.' },
    }));
    await ready(page);

    fireEvent.click(addButton());

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Your card has insufficient funds.'));
    expect(attachCalls(page.calls)).toEqual([]);
    expect(page.onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(addButton().disabled).toBe(false));
  });

  it('never loads Stripe when the local processor is the card provider', async () => {
    const page = start('local');
    await waitFor(() => expect(intentProviders(page.calls)).toContain('local'));
    await waitFor(() => expect(addButton().disabled).toBe(false));
    expect(screen.getByLabelText('Card number')).toBeTruthy();
    expect(loadStripe).not.toHaveBeenCalled();
    expect(page.stripe.elements).not.toHaveBeenCalled();
  });
});
