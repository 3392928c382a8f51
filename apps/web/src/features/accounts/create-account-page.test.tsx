import { type AccountSummary, endpoints, Messages, type UserInfo } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { apiKey } from '../../testing/api-keys';
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
import { CreateAccountPage } from './create-account-page';

const DRAFT = '22222222-2222-4222-8222-222222222222';
const T = Texts.createAccount;
const summary = (name: string): AccountSummary => ({
  id: DRAFT,
  accountId: DRAFT,
  name,
  accountName: name,
  status: 'ACTIVE',
  isBillingApiEnabled: true,
  roleName: 'OWNER',
  createdAt: '2026-11-21T10:00:00.000Z',
});
const user = (welcomeCredit: boolean): UserInfo => ({
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  email: 'owner@example.com',
  firstName: 'Ann',
  lastName: 'Owner',
  mfaEnabled: false,
  bonusRedemption: { welcomeCredit },
  ambassador: null,
});
const intent = { client_secret: 'seti_1_secret_x', customerId: 'cus_1', setupIntentId: 'seti_1', accountId: DRAFT };

const { create, finishCreate } = endpoints.accounts;
const { attach, createSetupIntent } = endpoints.cards;

interface Options {
  redeemed?: boolean;
  mandatory?: boolean;
  /** Stubs that may answer a call first (a refusal, say). */
  first?: EndpointStub[];
}

function start({ redeemed = false, mandatory = false, first = [] }: Options = {}) {
  const calls = serveEndpoints(
    ...first,
    on(endpoints.users.info, () => wrapped(user(redeemed))),
    on(endpoints.settings.read, ({ query }) =>
      query.name === 'ADD_PAYMENT_CARD' ? wrapped({ name: 'ADD_PAYMENT_CARD', settings: { mandatory } }) : undefined,
    ),
    on(create, () => wrapped(summary('ACCOUNT_CREATION'))),
    on(createSetupIntent, ({ params }) => (params.provider === 'local' ? wrapped(intent) : undefined)),
    on(finishCreate, ({ body }) => wrapped(summary(body.accountName), Messages.createdName(body.accountName))),
  );
  renderPage('/accounts/create', '/accounts/create', <CreateAccountPage />);
  return calls;
}

/** The setup-intent calls to the built-in local processor. */
const localIntents = (calls: FetchCall[]) =>
  callsTo(calls, createSetupIntent).filter((c) => c.params.provider === 'local');

async function nameAndNext(name: string) {
  fireEvent.change(await screen.findByLabelText(Texts.accountName), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: T.next }));
}

/** The payment step has arrived once its setup intent enables Create. */
const paymentStep = () =>
  waitFor(() => expect(screen.getByRole('button', { name: T.create }).hasAttribute('disabled')).toBe(false), {
    timeout: 10_000,
  });

setUpPageTests();

describe('CreateAccountPage: the three-step wizard', () => {
  it('offers the welcome credit, makes the draft, and finishes with Skip', async () => {
    const calls = start();
    expect(await screen.findByRole('checkbox', { name: T.welcomeCredit })).toBeTruthy();
    await nameAndNext('Main net');
    await paymentStep();
    expect(screen.getByText(T.optional)).toBeTruthy();
    // The card step starts at the card number.
    expect(document.activeElement).toBe(screen.getByLabelText('Card number'));
    expect(callsTo(calls, create)[0]?.body).toEqual({ accountName: 'ACCOUNT_CREATION' });
    expect(localIntents(calls)[0]?.headers['ebs-account-id']).toBe(DRAFT);

    fireEvent.click(screen.getByRole('button', { name: T.skip }));
    expect(await screen.findByRole('button', { name: T.done })).toBeTruthy();
    expect(callsTo(calls, finishCreate)[0]?.body).toEqual({
      accountId: DRAFT,
      accountName: 'Main net',
      redeemWelcomeCredit: true,
      cardId: null,
    });
    expect(toast.success).toHaveBeenCalledWith('Main net has been created.');
    fireEvent.click(screen.getByRole('button', { name: T.done }));
    expect(await screen.findByText('Elsewhere: /accounts')).toBeTruthy();
  });

  it('creates the first API key from Congratulations: shown once, with the RPC URL and a curl line filled in', async () => {
    const calls = start({
      first: [
        on(endpoints.system.config, () =>
          wrapped({ appEnv: 'test', docsUrl: '', apiBase: 'https://api.example.com', productName: 'EBS Console' }),
        ),
        on(endpoints.keys.create, ({ body }) =>
          wrapped({
            ...apiKey('dddddddd-dddd-4ddd-8ddd-dddddddddddd', body.apiKeyName, 'ACTIVE'),
            key: { keyId: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', key: 'first-secret' },
          }),
        ),
      ],
    });
    await nameAndNext('Main net');
    await paymentStep();
    fireEvent.click(screen.getByRole('button', { name: T.skip }));
    // The spec's Done stays; the first key is offered beside it.
    expect(await screen.findByRole('button', { name: T.done })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Create your first API key' }));

    const shown = await screen.findByRole('region', { name: 'Create your first API key' });
    const created = callsTo(calls, endpoints.keys.create);
    expect(created).toHaveLength(1);
    expect(created[0]?.headers['ebs-account-id']).toBe(DRAFT);
    expect(created[0]?.body).toEqual({ apiKeyName: 'My first key' });
    expect(within(shown).getByText(/displayed only once/)).toBeTruthy();
    expect(within(within(shown).getByRole('region', { name: 'API Key ID' })).getByText(/^dddddddd-/)).toBeTruthy();
    expect(within(within(shown).getByRole('region', { name: 'API Key' })).getByText('first-secret')).toBeTruthy();
    await waitFor(() =>
      expect((within(shown).getByLabelText(/^URL with the key in it/) as HTMLInputElement).value).toBe(
        'https://api.example.com/api/v1.0/rpc/ethereum/mainnet?x-api-key-id=dddddddd-dddd-4ddd-8ddd-dddddddddddd&x-api-key=first-secret',
      ),
    );
    const curl = within(shown).getByRole('region', { name: 'curl' }).textContent ?? '';
    expect(curl).toContain(`curl -s 'https://api.example.com/api/v1.0/rpc/ethereum/mainnet'`);
    expect(curl).toContain(`-H 'x-api-key: first-secret'`);
    for (const library of ['viem', 'ethers', 'web3.py']) {
      expect(within(shown).getByRole('tab', { name: library })).toBeTruthy();
    }
    expect(within(shown).getByRole('button', { name: 'Copy curl' })).toBeTruthy();
  });

  it('hides the welcome credit from a user who has redeemed it, and never asks for it', async () => {
    const calls = start({ redeemed: true });
    await nameAndNext('Second');
    await paymentStep();
    expect(screen.queryByRole('checkbox', { name: T.welcomeCredit })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: T.skip }));
    await screen.findByRole('button', { name: T.done });
    expect(callsTo(calls, finishCreate)[0]?.body).toMatchObject({
      redeemWelcomeCredit: false,
    });
  });

  it('refuses an invalid name with "Invalid account name" and makes no draft', async () => {
    const calls = start();
    await nameAndNext('semi;colon');
    expect(await screen.findByText(Messages.invalidAccountName)).toBeTruthy();
    expect(callsTo(calls, create)).toHaveLength(0);
  });

  it('shows the name hint, and refuses letters outside word characters as the check does (spec A §5)', async () => {
    const calls = start();
    expect(screen.getByText(Messages.accountNameHint)).toBeTruthy();
    await nameAndNext('Café Ünïcode');
    expect(await screen.findByText(Messages.invalidAccountName)).toBeTruthy();
    expect(callsTo(calls, create)).toHaveLength(0);
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
      first: [
        on(createSetupIntent, ({ params }) =>
          params.provider === 'local' ? failed(500, 'Card provider unavailable') : undefined,
        ),
      ],
    });
    await nameAndNext('No provider');
    expect(await screen.findByText('Elsewhere: /accounts')).toBeTruthy();
    expect((vi.mocked(toast.error).mock.calls[0]?.[0] as Error | undefined)?.message).toBe('Card provider unavailable');
  });

  it('creates with a card: the processor confirms it, the draft gets it, the finish names it', async () => {
    const calls = start({
      first: [
        on(endpoints.processor.confirmSetupIntent, ({ params }) =>
          params.id === 'seti_1'
            ? { status: 200, body: { id: 'seti_1', status: 'succeeded', payment_method: 'pm_1' } }
            : undefined,
        ),
        on(attach, () => wrapped({ cardId: 'card-1' })),
      ],
    });
    await nameAndNext('With card');
    await paymentStep();
    fireEvent.change(screen.getByLabelText(Texts.cards.cardNumber), { target: { value: '4242424242424242' } });
    fireEvent.change(screen.getByLabelText(Texts.cards.expiry), { target: { value: '12/30' } });
    fireEvent.change(screen.getByLabelText(Texts.cards.cvc), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: T.create }));
    await screen.findByRole('button', { name: T.done });
    const attached = callsTo(calls, attach)[0];
    expect(attached?.body).toEqual({ cardToken: 'pm_1' });
    expect(attached?.headers['ebs-account-id']).toBe(DRAFT);
    expect(callsTo(calls, finishCreate)[0]?.body).toMatchObject({ cardId: 'card-1' });
  });
});
