import { endpoints, NotifyMessages } from '@ebs/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { callsTo, failed, on, setUpPageTests } from '../../testing/page-test-kit';
import {
  ACCOUNT,
  AT,
  cells,
  LIST_PATH,
  notifyState,
  renderWebhookPages,
  serveNotify,
  webhook,
} from './webhooks-test-kit';

setUpPageTests();

const treasury = webhook({
  addressCount: 1234,
  confirmations: 12,
  lastDelivery: { at: AT, blockNumber: 7_000_001, statusCode: 200, status: 'DELIVERED' },
});
const payouts = webhook({
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Payouts',
  network: 'AURORA_TESTNET',
  url: 'https://payouts.example.com/in',
  categories: ['ERC20', 'ERC1155'],
  status: 'DISABLED',
  disabledReason: NotifyMessages.disabledAfterFailures,
  addressCount: 3,
  failingSince: AT,
  lastDelivery: { at: AT, blockNumber: 12, statusCode: null, status: 'FAILED' },
});
const fresh = webhook({ id: '33333333-3333-4333-8333-333333333333', name: 'Fresh' });

const row = async (name: string) => (await screen.findByRole('link', { name })).closest('tr') as HTMLElement;

describe('WebhooksPage', () => {
  it('lists each webhook with its network, URL, addresses, categories, confirmations, status and last delivery', async () => {
    const calls = serveNotify(notifyState({ webhooks: [treasury, payouts, fresh] }));
    renderWebhookPages(LIST_PATH);

    expect(screen.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeTruthy();
    const first = await row('Treasury deposits');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Network',
      'URL',
      'Addresses',
      'Categories',
      'Confirmations',
      'Status',
      'Last delivery',
    ]);
    expect(cells(first)).toEqual([
      'Treasury deposits',
      'ETHEREUM SEPOLIA',
      'https://hooks.example.com/activity',
      '1,234',
      'Native, ERC-20, ERC-721, ERC-1155',
      '12',
      'ENABLED',
      `${formatDateTime(AT)} · HTTP 200`,
    ]);
    expect(cells(await row('Payouts'))).toEqual([
      'Payouts',
      'AURORA TESTNET',
      'https://payouts.example.com/in',
      '3',
      'ERC-20, ERC-1155',
      '0',
      'DISABLED',
      `${formatDateTime(AT)} · no answer`,
    ]);
    expect(cells(await row('Fresh')).at(-1)).toBe('None yet');
    expect(callsTo(calls, endpoints.notify.list)[0]?.headers['ebs-account-id']).toBe(ACCOUNT);
  });

  it('tells why a webhook is disabled on its status tag, by hover or by keyboard focus', async () => {
    serveNotify(notifyState({ webhooks: [payouts] }));
    renderWebhookPages(LIST_PATH);

    const tag = within(await row('Payouts')).getByText('DISABLED');
    expect(tag.getAttribute('tabindex')).toBe('0');
    fireEvent.focus(tag);
    expect((await screen.findByRole('tooltip')).textContent).toBe(NotifyMessages.disabledAfterFailures);
  });

  it('links each webhook to its page', async () => {
    serveNotify(notifyState({ webhooks: [treasury] }));
    renderWebhookPages(LIST_PATH);

    fireEvent.click(await screen.findByRole('link', { name: 'Treasury deposits' }));
    expect(await screen.findByRole('heading', { name: 'Treasury deposits', level: 2 })).toBeTruthy();
    expect(screen.getByRole('link', { name: /All webhooks/ }).getAttribute('href')).toBe(LIST_PATH);
  });

  it('says how to begin when the account has no webhook', async () => {
    serveNotify(notifyState());
    renderWebhookPages(LIST_PATH);

    expect(
      await screen.findByText(
        'No webhooks yet. Create one with Create webhook to be told of transfers to and from your addresses.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: /Create webhook/ })).toBeTruthy();
  });

  it('shows a failed load in place, and reads the list again on Try again', async () => {
    let refuse = true;
    const calls = serveNotify(
      notifyState({ webhooks: [treasury] }),
      on(endpoints.notify.list, () =>
        refuse ? failed(503, 'The service is busy, please try again later.') : undefined,
      ),
    );
    renderWebhookPages(LIST_PATH);

    expect(await screen.findByText(/The service is busy, please try again later\./)).toBeTruthy();
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: /Try again/ }));
    expect(await row('Treasury deposits')).toBeTruthy();
    expect(callsTo(calls, endpoints.notify.list)).toHaveLength(2);
  });
});
