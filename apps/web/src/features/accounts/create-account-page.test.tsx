import { Messages } from '@ebs/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Texts } from '../../lib/texts';
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
import { CreateAccountPage } from './create-account-page';

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const DRAFT = '22222222-2222-4222-8222-222222222222';
const T = Texts.createAccount;
const summary = (name: string) => ({
  id: DRAFT,
  accountId: DRAFT,
  name,
  accountName: name,
  status: 'ACTIVE',
  isBillingApiEnabled: true,
  roleName: 'OWNER',
  createdAt: '2026-11-21T10:00:00.000Z',
});
const intent = { client_secret: 'seti_1_secret_x', customerId: 'cus_1', setupIntentId: 'seti_1', accountId: DRAFT };

interface Options {
  redeemed?: boolean;
  mandatory?: boolean;
  extra?: (call: FetchCall) => Reply | undefined;
}

function start({ redeemed = false, mandatory = false, extra = () => undefined }: Options = {}) {
  const calls = serveFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url === '/api/v1.0/user') return wrapped({ bonusRedemption: { welcomeCredit: redeemed } });
    if (call.url === '/api/v1.0/setting?name=ADD_PAYMENT_CARD')
      return wrapped({ name: 'ADD_PAYMENT_CARD', settings: { mandatory } });
    if (call.url === '/api/v1.0/account' && call.method === 'POST') return wrapped(summary('ACCOUNT_CREATION'));
    if (call.url === '/api/v1.0/payment/local') return wrapped(intent);
    if (call.url === '/api/v1.0/account/finishCreateAccountProcess') {
      const body = call.body as { accountName: string };
      return wrapped(summary(body.accountName), Messages.createdName(body.accountName));
    }
    return undefined;
  });
  renderPage('/accounts/create', '/accounts/create', <CreateAccountPage />);
  return calls;
}

const posted = (calls: FetchCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);

async function nameAndNext(name: string) {
  fireEvent.change(await screen.findByLabelText(Texts.accountName), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: T.next }));
}

/** The payment step has arrived once its setup intent enables Create. */
const paymentStep = () =>
  waitFor(() => expect(screen.getByRole('button', { name: T.create }).hasAttribute('disabled')).toBe(false), {
    timeout: 10_000,
  });

setUpPageTests(toast);

describe('CreateAccountPage: the three-step wizard', () => {
  it('offers the welcome credit, makes the draft, and finishes with Skip', async () => {
    const calls = start();
    expect(await screen.findByRole('checkbox', { name: T.welcomeCredit })).toBeTruthy();
    await nameAndNext('Main net');
    await paymentStep();
    expect(screen.getByText(T.optional)).toBeTruthy();
    expect(posted(calls, '/api/v1.0/account')[0]?.body).toEqual({ accountName: 'ACCOUNT_CREATION' });
    expect(calls.find((c) => c.url === '/api/v1.0/payment/local')?.headers['ebs-account-id']).toBe(DRAFT);

    fireEvent.click(screen.getByRole('button', { name: T.skip }));
    expect(await screen.findByRole('button', { name: T.done })).toBeTruthy();
    expect(posted(calls, '/api/v1.0/account/finishCreateAccountProcess')[0]?.body).toEqual({
      accountId: DRAFT,
      accountName: 'Main net',
      redeemWelcomeCredit: true,
      cardId: null,
    });
    expect(toast.success).toHaveBeenCalledWith('Main net has been created.');
    fireEvent.click(screen.getByRole('button', { name: T.done }));
    expect(await screen.findByText('Elsewhere: /accounts')).toBeTruthy();
  });

  it('hides the welcome credit from a user who has redeemed it, and never asks for it', async () => {
    const calls = start({ redeemed: true });
    await nameAndNext('Second');
    await paymentStep();
    expect(screen.queryByRole('checkbox', { name: T.welcomeCredit })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: T.skip }));
    await screen.findByRole('button', { name: T.done });
    expect(posted(calls, '/api/v1.0/account/finishCreateAccountProcess')[0]?.body).toMatchObject({
      redeemWelcomeCredit: false,
    });
  });

  it('refuses an invalid name with "Invalid account name" and makes no draft', async () => {
    const calls = start();
    await nameAndNext('semi;colon');
    expect(await screen.findByText(Messages.invalidAccountName)).toBeTruthy();
    expect(posted(calls, '/api/v1.0/account')).toHaveLength(0);
  });

  it('shows the name hint, and refuses letters outside word characters as the check does (spec A §5)', async () => {
    const calls = start();
    expect(screen.getByText(Messages.accountNameHint)).toBeTruthy();
    await nameAndNext('Café Ünïcode');
    expect(await screen.findByText(Messages.invalidAccountName)).toBeTruthy();
    expect(posted(calls, '/api/v1.0/account')).toHaveLength(0);
  });

  it('has no Skip and no Optional when a card is mandatory', async () => {
    start({ mandatory: true });
    await nameAndNext('Carded');
    await paymentStep();
    expect(screen.queryByRole('button', { name: T.skip })).toBeNull();
    expect(screen.queryByText(T.optional)).toBeNull();
  });

  it('goes back to the name, keeping it', async () => {
    start();
    await nameAndNext('Kept');
    await paymentStep();
    fireEvent.click(screen.getByRole('button', { name: T.back }));
    expect(((await screen.findByLabelText(Texts.accountName)) as HTMLInputElement).value).toBe('Kept');
  });

  it('cancels back to /accounts', async () => {
    start();
    fireEvent.click(await screen.findByRole('button', { name: T.cancel }));
    expect(await screen.findByText('Elsewhere: /accounts')).toBeTruthy();
  });

  it('shows the error and returns to /accounts when the setup intent fails', async () => {
    start({
      extra: (call) => (call.url === '/api/v1.0/payment/local' ? failed(500, 'Card provider unavailable') : undefined),
    });
    await nameAndNext('No provider');
    expect(await screen.findByText('Elsewhere: /accounts')).toBeTruthy();
    expect((vi.mocked(toast.error).mock.calls[0]?.[0] as Error | undefined)?.message).toBe('Card provider unavailable');
  });

  it('creates with a card: the processor confirms it, the draft gets it, the finish names it', async () => {
    const calls = start({
      extra: (call) => {
        if (call.url === '/processor/v1/setup_intents/seti_1/confirm')
          return { status: 200, body: { id: 'seti_1', status: 'succeeded', payment_method: 'pm_1' } };
        if (call.url === '/api/v1.0/payment/card' && call.method === 'POST') return wrapped({ cardId: 'card-1' });
        return undefined;
      },
    });
    await nameAndNext('With card');
    await paymentStep();
    fireEvent.change(screen.getByLabelText(Texts.cards.cardNumber), { target: { value: '4242424242424242' } });
    fireEvent.change(screen.getByLabelText(Texts.cards.expiry), { target: { value: '12/30' } });
    fireEvent.change(screen.getByLabelText(Texts.cards.cvc), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: T.create }));
    await screen.findByRole('button', { name: T.done });
    const attach = posted(calls, '/api/v1.0/payment/card')[0];
    expect(attach?.body).toEqual({ cardToken: 'pm_1' });
    expect(attach?.headers['ebs-account-id']).toBe(DRAFT);
    expect(posted(calls, '/api/v1.0/account/finishCreateAccountProcess')[0]?.body).toMatchObject({ cardId: 'card-1' });
  });
});
