import { endpoints, ForwardingMessages } from '@ebs/contract';
import { focusManager } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';
import { callsTo, setUpPageTests, stubWindowWidth } from '../../testing/page-test-kit';
import { CreateWalletPage } from './create-wallet-page';
import {
  ACCOUNT,
  button,
  CHECKED_AGAIN_AT,
  destination,
  dialog,
  drawer,
  emptyState,
  forwardingWallet,
  gasFeeWallet,
  locationState,
  ROUTES,
  renderRoutes,
  type ServerState,
  serveForwarding,
} from './forwarding-test-kit';
import { WalletsPage } from './wallets-page';

setUpPageTests();
afterEach(() => focusManager.setFocused(undefined));

const F = endpoints.forwarding;

const enabled = forwardingWallet();
const disabled = forwardingWallet({
  id: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
  publicAddress: '0x2222222222222222222222222222222222222222',
  status: 'DISABLED',
  token: 'ERC20',
  gasFeeFundingWalletId: gasFeeWallet().id,
  webhookSetting: { url: 'https://hooks.example.com/in', header: 'x-token', headerValue: 'abc' },
});

function open(state: ServerState) {
  const calls = serveForwarding(state);
  renderRoutes(ROUTES.wallets, {
    '/account/:accountId/services/token-forwarding/wallets': <WalletsPage />,
    '/account/:accountId/services/token-forwarding/wallets/create': <CreateWalletPage />,
  });
  return calls;
}

const row = async (text: string) =>
  (await screen.findByText(text, { selector: 'td, td *' })).closest('tr') as HTMLElement;
const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));
const headers = () =>
  screen
    .getAllByRole('columnheader')
    .filter((h) => h.closest('.ant-tabs-tabpane-active'))
    .map((h) => h.textContent);

describe('WalletsPage: the three lists', () => {
  it('asks for both statuses as JSON array text and shows the forwarding wallets with green and grey badges', async () => {
    const calls = open(emptyState({ wallets: [enabled, disabled] }));
    expect(await screen.findByRole('heading', { name: 'Token Forwarding Wallets' })).toBeTruthy();
    const on = await row(enabled.id);
    const off = await row(disabled.id);

    const [list] = callsTo(calls, F.listWallets);
    expect(list?.query).toEqual({ statusIn: '["ENABLED","DISABLED"]' });
    expect(list?.headers['ebs-account-id']).toBe(ACCOUNT);
    expect(headers()).toEqual([
      'ID',
      'Token',
      'Address',
      'Status',
      'Balance Last Checked At',
      'Network',
      'Destination',
      'Balance',
    ]);
    expect(within(on).getByText('ENABLED').previousElementSibling?.className).toContain('ant-badge-status-success');
    expect(within(off).getByText('DISABLED').previousElementSibling?.className).toContain('ant-badge-status-default');
    expect(within(on).getByText('2026-11-21', { exact: false }).textContent).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    );
  });

  it('shows where each forwarding wallet lives, where its tokens go, and its balance at the last check', async () => {
    const unchecked = forwardingWallet({
      id: '99999999-9999-4999-8999-999999999999',
      network: 'BSC_TESTNET',
      publicAddress: '0x3333333333333333333333333333333333333333',
      balance: null,
      balanceLastCheckedAt: null,
    });
    open(emptyState({ wallets: [enabled, unchecked] }));
    const cells = async (id: string) => [...(await row(id)).querySelectorAll('td')].map((td) => td.textContent);

    // The ID and the address stay whole (the spec's columns); the destination is shortened, whole on hover.
    expect(await cells(enabled.id)).toEqual([
      enabled.id,
      'ETH',
      enabled.publicAddress,
      'ENABLED',
      formatDateTime(enabled.balanceLastCheckedAt as string),
      'ETHEREUM SEPOLIA',
      '0x86...070D',
      '0 ETH',
    ]);
    expect(screen.getAllByTitle(enabled.destinationPublicAddress)).toHaveLength(2);
    expect((await cells(unchecked.id)).slice(4)).toEqual(['', 'BSC TESTNET', '0x86...070D', 'Not checked yet']);
  });

  it('shows gas fee funding and destination wallets in their tabs, network names with a space', async () => {
    open(emptyState({ gasFeeWallets: [gasFeeWallet()], destinations: [destination({ network: 'BSC_TESTNET' })] }));
    await screen.findByText('No token forwarding wallets yet. Create one with Create Wallet.');

    tab('Gas Fee Funding Wallets');
    const gas = await row('Gas payer');
    expect(headers()).toEqual(['ID', 'Name', 'Network', 'Address', 'Current Balance', 'Balance Last Checked At']);
    expect(within(gas).getByText('ETHEREUM SEPOLIA')).toBeTruthy();
    expect(within(gas).getByText('0.5 ETH')).toBeTruthy();

    tab('Destination Wallets');
    const treasury = await row('Treasury');
    expect(headers()).toEqual(['Name', 'Network', 'Destination Public Address']);
    expect(within(treasury).getByText('BSC TESTNET')).toBeTruthy();
  });

  it('shows a phone the column naming each wallet and its main value; the drawer keeps the rest', async () => {
    stubWindowWidth(390);
    open(emptyState({ wallets: [enabled], gasFeeWallets: [gasFeeWallet()], destinations: [destination()] }));
    // The address, not the id: what a person knows a wallet by.
    const on = await row(enabled.publicAddress);
    expect(headers()).toEqual(['Address', 'Status']);
    expect(within(on).getByText('ENABLED')).toBeTruthy();

    tab('Gas Fee Funding Wallets');
    const gas = await row('Gas payer');
    expect(headers()).toEqual(['Name', 'Address', 'Current Balance']);
    expect(within(gas).getByText('0.5 ETH')).toBeTruthy();

    tab('Destination Wallets');
    await row('Treasury');
    expect(headers()).toEqual(['Name', 'Network', 'Destination Public Address']);
  });

  it('pages by 10 rows with no size changer', async () => {
    const wallets = Array.from({ length: 12 }, (_, i) =>
      forwardingWallet({ id: `aaaaaaaa-aaaa-4aaa-8aaa-0000000000${String(i).padStart(2, '0')}` }),
    );
    open(emptyState({ wallets }));
    await row(wallets[0]!.id);
    expect(screen.queryByText(wallets[10]!.id)).toBeNull();
    expect(document.querySelectorAll('.ant-tabs-tabpane-active .ant-table-row')).toHaveLength(10);
    expect(document.querySelector('.ant-pagination-options')).toBeNull();
    fireEvent.click(screen.getByTitle('2'));
    expect(await row(wallets[10]!.id)).toBeTruthy();
  });

  it('Refresh fetches all three lists again', async () => {
    const calls = open(emptyState());
    await screen.findByText('No token forwarding wallets yet. Create one with Create Wallet.');
    await waitFor(() => expect(callsTo(calls, F.listDestinations)).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: /Refresh/ }));
    await waitFor(() => expect(callsTo(calls, F.listDestinations)).toHaveLength(2));
    expect(callsTo(calls, F.listWallets)).toHaveLength(2);
    expect(callsTo(calls, F.listGasWallets)).toHaveLength(2);
  });

  it('Create Wallet hands the loaded gas fee and destination wallets to the create page', async () => {
    const calls = open(emptyState({ gasFeeWallets: [gasFeeWallet()], destinations: [destination()] }));
    await waitFor(() => expect(callsTo(calls, F.listDestinations)).toHaveLength(1));
    await waitFor(() => expect(callsTo(calls, F.listGasWallets)).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: /Create Wallet/ }));

    expect(await screen.findByRole('heading', { name: 'Create Wallet' })).toBeTruthy();
    expect(locationState()).toEqual({ gasFeeFundingWallets: [gasFeeWallet()], destinationWallets: [destination()] });
    expect(callsTo(calls, F.listDestinations)).toHaveLength(1);
    expect(callsTo(calls, F.listGasWallets)).toHaveLength(1);
  });
});

describe('WalletsPage: token forwarding wallet details and actions', () => {
  it('shows the details rows and only the actions its status allows', async () => {
    open(emptyState({ wallets: [enabled, disabled] }));
    fireEvent.click(await row(disabled.id));
    const details = await drawer('Wallet Details');
    for (const title of [
      'ID',
      'Address',
      'Network',
      'Token',
      'Minimum Forwarding Amount',
      'Destination Public Address',
      'Gas Fee Funding Wallet ID',
      'Webhook URL',
      'Webhook Header',
      'Webhook Header Value',
      'Balance Last Checked At',
    ]) {
      expect(within(details).getByText(title)).toBeTruthy();
    }
    expect(within(details).getByText('https://hooks.example.com/in')).toBeTruthy();
    expect(within(details).getByText('ETHEREUM SEPOLIA')).toBeTruthy();
    expect(within(details).getByRole('link', { name: disabled.publicAddress }).getAttribute('href')).toBe(
      `https://sepolia.etherscan.io/address/${disabled.publicAddress}`,
    );
    expect(button(details, 'Enable Wallet')).toBeTruthy();
    expect(within(details).queryByRole('button', { name: 'Disable Wallet' })).toBeNull();
    expect(button(details, 'View Transactions')).toBeTruthy();
    expect(button(details, 'Delete Wallet')).toBeTruthy();
  });

  it('disables with an optional reason: "Wallet has been disabled", the drawer closes, the badge turns grey', async () => {
    const calls = open(emptyState({ wallets: [enabled] }));
    fireEvent.click(await row(enabled.id));
    const details = await drawer('Wallet Details');
    expect(within(details).queryByRole('button', { name: 'Enable Wallet' })).toBeNull();
    fireEvent.click(button(details, 'Disable Wallet'));
    const modal = await dialog('Disable Wallet');
    fireEvent.change(within(modal).getByLabelText('Reason (optional)'), { target: { value: ' Rotating keys ' } });
    fireEvent.click(button(modal, 'Disable Wallet'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been disabled'));
    expect(callsTo(calls, F.setWalletStatus)[0]?.body).toEqual({
      id: enabled.id,
      reason: 'Rotating keys',
      newStatus: 'DISABLED',
    });
    await waitFor(() => expect(screen.queryByText('Wallet Details')).toBeNull());
    await waitFor(async () =>
      expect(within(await row(enabled.id)).getByText('DISABLED').previousElementSibling?.className).toContain(
        'ant-badge-status-default',
      ),
    );
  });

  it('enables a DISABLED wallet at once: "Wallet has been enabled"', async () => {
    const calls = open(emptyState({ wallets: [disabled] }));
    fireEvent.click(await row(disabled.id));
    fireEvent.click(button(await drawer('Wallet Details'), 'Enable Wallet'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been enabled'));
    expect(callsTo(calls, F.setWalletStatus)[0]?.body).toEqual({
      id: disabled.id,
      newStatus: 'ENABLED',
    });
    await waitFor(() => expect(screen.queryByText('Wallet Details')).toBeNull());
  });

  it('deletes only after the warning: "Wallet has been deleted" and the row is gone', async () => {
    const calls = open(emptyState({ wallets: [enabled] }));
    const deleted = () => callsTo(calls, F.deleteWallet).filter((c) => c.params.walletId === enabled.id).length;
    fireEvent.click(await row(enabled.id));
    fireEvent.click(button(await drawer('Wallet Details'), 'Delete Wallet'));
    const modal = await dialog('Delete Wallet');
    expect(within(modal).getByText(ForwardingMessages.deleteWarning)).toBeTruthy();
    fireEvent.click(button(modal, 'Cancel'));
    await waitFor(() => expect(screen.queryByText(ForwardingMessages.deleteWarning)).toBeNull());
    expect(deleted()).toBe(0);

    fireEvent.click(button(await drawer('Wallet Details'), 'Delete Wallet'));
    fireEvent.click(button(await dialog('Delete Wallet'), 'Delete'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been deleted'));
    expect(deleted()).toBe(1);
    expect(await screen.findByText('No token forwarding wallets yet. Create one with Create Wallet.')).toBeTruthy();
    expect(screen.queryByText('Wallet Details')).toBeNull();
  });

  it('View Transactions opens the transactions page carrying the wallet id', async () => {
    open(emptyState({ wallets: [enabled] }));
    fireEvent.click(await row(enabled.id));
    fireEvent.click(button(await drawer('Wallet Details'), 'View Transactions'));
    expect(await screen.findByText(`Elsewhere: ${ROUTES.transactions}`)).toBeTruthy();
    expect(locationState()).toEqual({ walletId: enabled.id });
  });

  it('says "Please select a wallet." when the open wallet is no longer in the refreshed list', async () => {
    const state = emptyState({ wallets: [enabled] });
    const calls = open(state);
    fireEvent.click(await row(enabled.id));
    const details = await drawer('Wallet Details');
    state.wallets = [];
    // Coming back to the window refreshes the lists while the drawer stays open.
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await within(details).findByText(/no longer in the list/);

    fireEvent.click(button(details, 'Disable Wallet'));
    expect(toast.error).toHaveBeenCalledWith('Please select a wallet.');
    fireEvent.click(button(details, 'Delete Wallet'));
    expect(toast.error).toHaveBeenLastCalledWith('Please select a wallet.');
    expect(screen.queryByText('Delete Wallet', { selector: '.ant-modal-title' })).toBeNull();
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });
});

describe('WalletsPage: gas fee funding and destination wallets', () => {
  it('refreshes a gas fee wallet balance: "Balance has been refreshed.", and the drawer stays open with the new balance and check time', async () => {
    const calls = open(emptyState({ gasFeeWallets: [gasFeeWallet()] }));
    tab('Gas Fee Funding Wallets');
    fireEvent.click(await row('Gas payer'));
    const details = await drawer('Wallet Details');
    for (const title of ['ID', 'Name', 'Address', 'Network', 'Token', 'Balance', 'Balance Last Checked At']) {
      expect(within(details).getByText(title)).toBeTruthy();
    }
    fireEvent.click(button(details, 'Refresh Balance'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Balance has been refreshed.'));
    expect(callsTo(calls, F.refreshGasBalance)[0]?.body).toEqual({
      id: gasFeeWallet().id,
    });
    expect(await row('0.75 ETH')).toBeTruthy();
    // The drawer stays open (spec B §4 closes it only after Enable and Disable), showing what changed.
    expect(screen.getByRole('dialog', { name: 'Wallet Details' })).toBe(details);
    expect(await within(details).findByText('0.75')).toBeTruthy();
    expect(within(details).getByText(formatDateTime(CHECKED_AGAIN_AT))).toBeTruthy();
    expect(button(details, 'Update Name')).toBeTruthy();
  });

  it('renames a destination wallet: "Name is required." for a blank name, then "Wallet name has been updated."', async () => {
    const calls = open(emptyState({ destinations: [destination()] }));
    tab('Destination Wallets');
    fireEvent.click(await row('Treasury'));
    const details = await drawer('Wallet Details');
    expect(within(details).getByRole('link', { name: destination().destinationPublicAddress })).toBeTruthy();
    expect(within(details).queryByRole('button', { name: 'Refresh Balance' })).toBeNull();
    fireEvent.click(button(details, 'Update Name'));
    const modal = await dialog('Update Name');
    const input = within(modal).getByLabelText('Name') as HTMLInputElement;
    expect(input.value).toBe('Treasury');
    fireEvent.change(input, { target: { value: '  ' } });
    fireEvent.click(button(modal, 'Update'));
    expect(await within(modal).findByText('Name is required.')).toBeTruthy();

    fireEvent.change(input, { target: { value: ' Cold storage ' } });
    fireEvent.click(button(modal, 'Update'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet name has been updated.'));
    expect(callsTo(calls, F.renameDestination)[0]?.body).toEqual({
      name: 'Cold storage',
      destinationPublicAddress: destination().destinationPublicAddress,
      network: 'ETHEREUM_SEPOLIA',
    });
    expect(await row('Cold storage')).toBeTruthy();
    expect(screen.queryByText('Wallet Details')).toBeNull();
  });

  it('deletes a destination wallet by network and address in the body', async () => {
    const calls = open(emptyState({ destinations: [destination()] }));
    tab('Destination Wallets');
    fireEvent.click(await row('Treasury'));
    fireEvent.click(button(await drawer('Wallet Details'), 'Delete Wallet'));
    fireEvent.click(button(await dialog('Delete Wallet'), 'Delete'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been deleted'));
    // The only DELETE is the destination's, named by network and address in the body.
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect(callsTo(calls, F.deleteDestination).map((c) => c.body)).toEqual([
      { network: 'ETHEREUM_SEPOLIA', destinationPublicAddress: destination().destinationPublicAddress },
    ]);
    expect(
      await screen.findByText(
        'No destination wallets yet. Create one with Create Wallet: forwarded tokens are sent to it.',
      ),
    ).toBeTruthy();
  });
});
