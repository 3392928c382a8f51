import { endpoints, NotifyMessages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { callsTo, renderPage, setUpPageTests } from '../../testing/page-test-kit';
import { AddressesCard } from './addresses-card';
import {
  ACCOUNT,
  address,
  button,
  notifyState,
  serveNotify,
  shownErrors,
  WEBHOOK_ID,
  webhook,
  webhookAt,
} from './webhooks-test-kit';

setUpPageTests();

const N = endpoints.notify;

function open(addresses: string[]) {
  const state = notifyState({
    webhooks: [webhook({ addressCount: addresses.length })],
    addresses: { [WEBHOOK_ID]: [...addresses].sort() },
  });
  const calls = serveNotify(state);
  renderPage(
    webhookAt(WEBHOOK_ID),
    '/account/:accountId/services/webhooks/:webhookId',
    <AddressesCard accountId={ACCOUNT} webhookId={WEBHOOK_ID} />,
  );
  return { calls, state, card: screen.getByTestId('webhook-addresses') };
}

/** The addresses the card shows, in order. */
const shown = (card: HTMLElement) =>
  [...card.querySelectorAll('.webhook-address')].map((cell) => cell.textContent ?? '');
const total = (card: HTMLElement) => within(card).getByTestId('webhook-address-total').textContent;
/** Types into the search box and presses Enter (antd takes one Enter until the key is up again). */
function searchFor(card: HTMLElement, text: string) {
  const search = within(card).getByRole('searchbox', { name: 'Search addresses' });
  fireEvent.change(search, { target: { value: text } });
  fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => address(from + i));

describe('AddressesCard: reading', () => {
  it('pages the addresses 20 at a time from the last one shown, back and forth, with the total', async () => {
    const { calls, card } = open(range(1, 45));
    await waitFor(() => expect(shown(card)).toEqual(range(1, 20)));
    expect(total(card)).toBe('Total: 45');
    expect(button(card, 'Previous').disabled).toBe(true);

    fireEvent.click(button(card, 'Next'));
    await waitFor(() => expect(shown(card)).toEqual(range(21, 40)));
    fireEvent.click(button(card, 'Next'));
    await waitFor(() => expect(shown(card)).toEqual(range(41, 45)));
    expect(within(card).getByText('Page 3')).toBeTruthy();
    expect(button(card, 'Next').disabled).toBe(true);
    fireEvent.click(button(card, 'Previous'));
    await waitFor(() => expect(shown(card)).toEqual(range(21, 40)));

    expect(callsTo(calls, N.listAddresses).map((c) => c.query)).toEqual([
      { limit: '20' },
      { limit: '20', cursor: address(20) },
      { limit: '20', cursor: address(40) },
      // A page opened again shows what it held at once, and is read again.
      { limit: '20', cursor: address(20) },
    ]);
  });

  it('searches by part of an address, in either letter case, from the first page', async () => {
    const { calls, card } = open([address(0xabc01), address(0x12345), address(0xabc02)]);
    await waitFor(() => expect(shown(card)).toHaveLength(3));

    searchFor(card, ' ABC0 ');
    await waitFor(() => expect(shown(card)).toEqual([address(0xabc01), address(0xabc02)]));
    expect(total(card)).toBe('Matching: 2');
    expect(callsTo(calls, N.listAddresses).at(-1)?.query).toEqual({ limit: '20', search: 'abc0' });

    searchFor(card, 'ffff');
    expect(await within(card).findByText('No address matches this search.')).toBeTruthy();
  });
});

describe('AddressesCard: changing', () => {
  it('removes one address with a PATCH of remove', async () => {
    const { calls, card } = open([address(1), address(2)]);
    await waitFor(() => expect(shown(card)).toHaveLength(2));

    fireEvent.click(button(card, `Remove ${address(1)}`));
    await waitFor(() => expect(shown(card)).toEqual([address(2)]));
    expect(toast.success).toHaveBeenCalledWith(NotifyMessages.addressesUpdated);
    const [change] = callsTo(calls, N.changeAddresses);
    expect([change?.method, change?.params.webhookId, change?.body]).toEqual([
      'PATCH',
      WEBHOOK_ID,
      { remove: [address(1)] },
    ]);
    expect(total(card)).toBe('Total: 1');
  });

  it('adds the addresses pasted 1000 a PATCH, tells how many were new, and empties the box', async () => {
    const { calls, card, state } = open([address(1)]);
    await waitFor(() => expect(shown(card)).toHaveLength(1));
    const added = range(2, 1201);
    const box = within(card).getByLabelText('Addresses to add') as HTMLTextAreaElement;
    expect(box.getAttribute('data-testid')).toBe('webhook-add-addresses-input');
    fireEvent.change(box, { target: { value: [address(1), ...added].join('\n') } });
    expect(within(card).getByText('1,201 addresses')).toBeTruthy();

    fireEvent.click(button(card, 'Add addresses'));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'Addresses have been updated. 1,200 addresses added, 1 already watched.',
      ),
    );
    expect(callsTo(calls, N.changeAddresses).map((c) => c.body)).toEqual([
      { add: [address(1), ...added.slice(0, 999)] },
      { add: added.slice(999) },
    ]);
    expect(state.addresses[WEBHOOK_ID]).toHaveLength(1201);
    // The form's reset mounts the field anew: the box is looked up again.
    await waitFor(() =>
      expect((within(card).getByLabelText('Addresses to add') as HTMLTextAreaElement).value).toBe(''),
    );
    await waitFor(() => expect(total(card)).toBe('Total: 1,201'));
  });

  it('refuses an entry that is not an address before any call', async () => {
    const { calls, card } = open([address(1)]);
    fireEvent.change(within(card).getByLabelText('Addresses to add'), {
      target: { value: `${address(5)} 0x1234` },
    });
    fireEvent.click(button(card, 'Add addresses'));

    await waitFor(() => expect(shownErrors(card)).toEqual([NotifyMessages.addressInvalid('addresses', 1, '0x1234')]));
    expect(callsTo(calls, N.changeAddresses)).toHaveLength(0);
  });
});
