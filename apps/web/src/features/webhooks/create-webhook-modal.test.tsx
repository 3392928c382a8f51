import { endpoints, ForwardingMessages, NotifyMessages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { callsTo, type EndpointStub, failed, on, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import {
  ACCOUNT,
  address,
  button,
  CREATED_ID,
  choose,
  dialog,
  LIST_PATH,
  notifyState,
  renderWebhookPages,
  serveNotify,
  shownErrors,
} from './webhooks-test-kit';

setUpPageTests();

const N = endpoints.notify;
const M = NotifyMessages;

/** The list with the create form opened; answers the calls, the dialog and its form. */
async function openForm(...first: EndpointStub[]) {
  const calls = serveNotify(notifyState(), ...first);
  renderWebhookPages(LIST_PATH);
  fireEvent.click(await screen.findByRole('button', { name: /Create webhook/ }));
  const modal = await dialog('Create webhook');
  return { calls, modal, form: within(modal).getByTestId('webhook-create-form') };
}

const type = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
const paste = (value: string) => fireEvent.change(screen.getByTestId('webhook-addresses-input'), { target: { value } });
const submit = (modal: HTMLElement) => fireEvent.click(button(modal, 'Create'));
const lastError = () => {
  const shown = vi.mocked(toast.error).mock.calls.at(-1)?.[0];
  return shown instanceof Error ? shown.message : shown;
};

async function fillIn(modal: HTMLElement, addresses: string) {
  type(modal, 'Name', '  Treasury deposits ');
  await choose(modal, 'Network', 'AURORA TESTNET');
  type(modal, 'URL', ' https://hooks.example.com/activity ');
  paste(addresses);
}

describe('CreateWebhookModal: the checks, in the server’s words', () => {
  it('starts with all four categories and 0 confirmations, and refuses an empty form without a call', async () => {
    const { calls, modal, form } = await openForm();
    for (const category of ['Native', 'ERC-20', 'ERC-721', 'ERC-1155']) {
      expect((within(modal).getByLabelText(category) as HTMLInputElement).checked).toBe(true);
    }
    expect((within(modal).getByLabelText('Confirmations') as HTMLInputElement).value).toBe('0');

    submit(modal);
    await waitFor(() =>
      expect(shownErrors(form)).toEqual([
        M.nameRequired,
        'Choose a network.',
        ForwardingMessages.webhookUrlRequired,
        M.addressesRequired,
      ]),
    );
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });

  it('refuses no category, confirmations past 64, a URL that is not http(s) and an entry that is not an address', async () => {
    const { calls, modal, form } = await openForm();
    await fillIn(modal, `${address(1)}\nnope\n${address(2)}`);
    for (const category of ['Native', 'ERC-20', 'ERC-721', 'ERC-1155'])
      fireEvent.click(within(modal).getByLabelText(category));
    type(modal, 'Confirmations', '65');
    type(modal, 'URL', 'ftp://hooks.example.com');

    submit(modal);
    await waitFor(() =>
      expect(shownErrors(form)).toEqual([
        ForwardingMessages.webhookUrlInvalid,
        M.categoriesEmpty,
        M.confirmationsInvalid,
        M.addressInvalid('addresses', 1, 'nope'),
      ]),
    );
    expect(within(modal).getByText('2 addresses, 1 entry not an address')).toBeTruthy();
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });

  it('counts the distinct addresses pasted, whatever their letter case', async () => {
    const { modal } = await openForm();
    paste(`${address(10)}, ${address(11)}\n${address(10).toUpperCase().replace('0X', '0x')}`);
    expect(within(modal).getByText('2 addresses, 1 duplicate left out')).toBeTruthy();
  });
});

describe('CreateWebhookModal: creating', () => {
  it('sends the body the contract types, then opens the new webhook’s page', async () => {
    const { calls, modal } = await openForm();
    await fillIn(modal, `${address(2)}\n${address(1)}`);
    fireEvent.click(within(modal).getByLabelText('ERC-721'));
    type(modal, 'Confirmations', '3');

    submit(modal);
    expect(await screen.findByRole('heading', { name: 'Treasury deposits', level: 2 })).toBeTruthy();
    const [create] = callsTo(calls, N.create);
    expect(create?.body).toEqual({
      name: 'Treasury deposits',
      network: 'AURORA_TESTNET',
      url: 'https://hooks.example.com/activity',
      addresses: [address(2), address(1)],
      categories: ['NATIVE', 'ERC20', 'ERC1155'],
      confirmations: 3,
    });
    expect(create?.headers['ebs-account-id']).toBe(ACCOUNT);
    expect(callsTo(calls, N.changeAddresses)).toHaveLength(0);
    expect(toast.success).toHaveBeenCalledWith(M.created);
    expect(screen.queryByText('Create webhook', { selector: '.ant-modal-title' })).toBeNull();
  });

  it('sends the first 1000 addresses with the create, then the rest 1000 a PATCH, showing how far it got', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The last change waits, so that the progress can be read while it runs.
    const { calls, modal } = await openForm(
      on(N.changeAddresses, ({ body }) =>
        body.add?.length === 500
          ? held.then(() => wrapped({ added: 500, removed: 0, addressCount: 2500 }, M.addressesUpdated))
          : undefined,
      ),
    );
    const given = Array.from({ length: 2500 }, (_, i) => address(i + 1));
    await fillIn(modal, [...given, address(7).toUpperCase().replace('0X', '0x')].join('\n'));
    expect(within(modal).getByText('2,500 addresses, 1 duplicate left out')).toBeTruthy();

    submit(modal);
    expect(await within(modal).findByText('Adding addresses: 2,000 of 2,500')).toBeTruthy();
    expect(
      within(modal).getByRole('progressbar', { name: 'Addresses added so far' }).getAttribute('aria-valuenow'),
    ).toBe('80');
    release();

    expect(await screen.findByRole('heading', { name: 'Treasury deposits', level: 2 })).toBeTruthy();
    expect(callsTo(calls, N.create).map((call) => call.body.addresses)).toEqual([given.slice(0, 1000)]);
    const changes = callsTo(calls, N.changeAddresses);
    expect(changes.map((call) => call.method)).toEqual(['PATCH', 'PATCH']);
    expect(changes.map((call) => call.params.webhookId)).toEqual([CREATED_ID, CREATED_ID]);
    expect(changes.map((call) => call.body)).toEqual([{ add: given.slice(1000, 2000) }, { add: given.slice(2000) }]);
    expect(changes[0]?.headers['content-type']).toBe('application/json');
  });

  it('adds the addresses of a CSV file with a header and other columns to the list', async () => {
    const { modal } = await openForm();
    paste(address(1));
    const csv = [
      'label,address,last transaction',
      `Alice,${address(2)},0x${'ab'.repeat(32)}`,
      `"Bob","${address(1)}",`,
    ].join('\n');
    const input = modal.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([csv], 'wallets.csv', { type: 'text/csv' })] } });

    expect(
      await within(modal).findByText(
        'wallets.csv: 2 addresses added; 1 value starting with 0x left out (not 40 hexadecimal digits).',
      ),
    ).toBeTruthy();
    expect((screen.getByTestId('webhook-addresses-input') as HTMLTextAreaElement).value).toBe(
      [address(1), address(2), address(1)].join('\n'),
    );
    expect(within(modal).getByText('2 addresses, 1 duplicate left out')).toBeTruthy();
  });

  it('shows the server’s refusal and keeps the form open to be corrected', async () => {
    const refusal = M.networkUnavailable('AURORA_TESTNET');
    const { calls, modal } = await openForm(on(N.create, () => failed(503, refusal, 'Service Unavailable')));
    await fillIn(modal, address(1));

    submit(modal);
    await waitFor(() => expect(lastError()).toBe(refusal));
    expect(callsTo(calls, N.create)).toHaveLength(1);
    expect(within(modal).getByLabelText('Name')).toHaveProperty('value', '  Treasury deposits ');
    expect(button(modal, 'Create').disabled).toBe(false);
  });

  it('opens the webhook made when a later PATCH is refused, and says how many addresses it holds', async () => {
    const { calls, modal } = await openForm(on(N.changeAddresses, () => failed(400, M.tooManyAddresses)));
    await fillIn(modal, Array.from({ length: 1500 }, (_, i) => address(i + 1)).join(','));

    submit(modal);
    expect(await screen.findByRole('heading', { name: 'Treasury deposits', level: 2 })).toBeTruthy();
    expect(lastError()).toBe(
      `The webhook was created with 1,000 of 1,500 addresses: ${M.tooManyAddresses} Add the rest on this page.`,
    );
    expect(callsTo(calls, N.changeAddresses)).toHaveLength(1);
    expect(toast.success).not.toHaveBeenCalled();
  });
});
