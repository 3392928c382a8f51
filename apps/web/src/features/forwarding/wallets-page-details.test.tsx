import { endpoints, ForwardingMessages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { callsTo, setUpPageTests } from '../../testing/page-test-kit';
import {
  button,
  destination,
  dialog,
  drawer,
  emptyState,
  forwardingWallet,
  gasFeeWallet,
  ROUTES,
  renderRoutes,
  type ServerState,
  serveForwarding,
} from './forwarding-test-kit';
import { WalletsPage } from './wallets-page';

setUpPageTests();

const { renameGasWallet, deleteGasWallet } = endpoints.forwarding;

function open(state: ServerState) {
  const calls = serveForwarding(state);
  renderRoutes(ROUTES.wallets, { '/account/:accountId/services/token-forwarding/wallets': <WalletsPage /> });
  return calls;
}

const activePane = () => document.querySelector('.ant-tabs-tabpane-active') as HTMLElement;
const row = async (text: string) =>
  (await within(activePane()).findByText(text, { selector: 'td, td *' })).closest('tr') as HTMLElement;
const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));
/** The text of column `index` in each row of the shown tab, top to bottom. */
const column = (index: number) =>
  [...activePane().querySelectorAll('.ant-table-row')].map((r) => r.querySelectorAll('td')[index]?.textContent);
const sortByCheckedAt = () =>
  fireEvent.click(within(activePane()).getByRole('columnheader', { name: 'Balance Last Checked At' }));
/** The detail row titled `title` of a drawer, title and value. */
const detailRow = (scope: HTMLElement, title: string) =>
  within(scope).getByText(title, { selector: '.detail-row > *' }).closest('.detail-row') as HTMLElement;

const at = (day: number) => `2026-11-${day}T12:00:00.000Z`;

describe('WalletsPage: sorting by Balance Last Checked At', () => {
  it('sorts the token forwarding wallets, never-checked ones first, then the other way round', async () => {
    const wallet = (id: string, balanceLastCheckedAt: string | null) =>
      forwardingWallet({ id: `aaaaaaaa-aaaa-4aaa-8aaa-${id.repeat(12)}`, balanceLastCheckedAt });
    const [day19, day21, never] = [wallet('1', at(19)), wallet('2', at(21)), wallet('3', null)];
    open(emptyState({ wallets: [day19, day21, never] }));
    await row(day19.id);
    const ids = () => column(0);
    expect(ids()).toEqual([day19.id, day21.id, never.id]);
    const [shown19, shown21, shownNever] = column(4);
    expect(shownNever).toBe('');

    sortByCheckedAt();
    await waitFor(() => expect(ids()).toEqual([never.id, day19.id, day21.id]));
    expect(column(4)).toEqual(['', shown19, shown21]);
    sortByCheckedAt();
    await waitFor(() => expect(ids()).toEqual([day21.id, day19.id, never.id]));
    expect(column(4)).toEqual([shown21, shown19, '']);
  });

  it('sorts the gas fee funding wallets, oldest check first, then newest first', async () => {
    const wallet = (id: string, name: string, updatedAt: string) =>
      gasFeeWallet({ id: `bbbbbbbb-bbbb-4bbb-8bbb-${id.repeat(12)}`, name, updatedAt });
    open(
      emptyState({
        gasFeeWallets: [wallet('1', 'Day 20', at(20)), wallet('2', 'Day 21', at(21)), wallet('3', 'Day 19', at(19))],
      }),
    );
    tab('Gas Fee Funding Wallets');
    await row('Day 20');
    const names = () => column(1);
    expect(names()).toEqual(['Day 20', 'Day 21', 'Day 19']);

    sortByCheckedAt();
    await waitFor(() => expect(names()).toEqual(['Day 19', 'Day 20', 'Day 21']));
    const shown = column(5);
    expect([...shown].sort()).toEqual(shown);
    sortByCheckedAt();
    await waitFor(() => expect(names()).toEqual(['Day 21', 'Day 20', 'Day 19']));
    expect(column(5)).toEqual([...shown].reverse());
  });
});

describe('WalletsPage: gas fee funding and destination wallet drawers', () => {
  it('shows a destination wallet’s Name, linked address and Network', async () => {
    open(emptyState({ destinations: [destination({ name: 'Exchange', network: 'BSC_TESTNET' })] }));
    tab('Destination Wallets');
    fireEvent.click(await row('Exchange'));
    const details = await drawer('Wallet Details');
    expect(within(detailRow(details, 'Name')).getByText('Exchange')).toBeTruthy();
    expect(within(detailRow(details, 'Network')).getByText('BSC TESTNET')).toBeTruthy();
    const address = destination().destinationPublicAddress;
    const link = within(detailRow(details, 'Destination Public Address')).getByRole('link', { name: address });
    expect(link.getAttribute('href')).toBe(`https://testnet.bscscan.com/address/${address}`);
    expect(details.querySelectorAll('.detail-row')).toHaveLength(3);
    expect(button(details, 'Update Name')).toBeTruthy();
    expect(button(details, 'Delete Wallet')).toBeTruthy();
  });

  it('renames a gas fee funding wallet from its drawer: the call carries the new name, the row shows it', async () => {
    const calls = open(emptyState({ gasFeeWallets: [gasFeeWallet()] }));
    tab('Gas Fee Funding Wallets');
    fireEvent.click(await row('Gas payer'));
    fireEvent.click(button(await drawer('Wallet Details'), 'Update Name'));
    const modal = await dialog('Update Name');
    const input = within(modal).getByLabelText('Name') as HTMLInputElement;
    expect(input.value).toBe('Gas payer');
    fireEvent.change(input, { target: { value: ' Fuel tank ' } });
    fireEvent.click(button(modal, 'Update'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet name has been updated.'));
    expect(callsTo(calls, renameGasWallet)[0]?.body).toEqual({
      id: gasFeeWallet().id,
      name: 'Fuel tank',
    });
    expect(await row('Fuel tank')).toBeTruthy();
    expect(screen.queryByText('Wallet Details')).toBeNull();
  });

  it('deletes a gas fee funding wallet only once confirmed, by DELETE with its id', async () => {
    const calls = open(emptyState({ gasFeeWallets: [gasFeeWallet()] }));
    const deleted = () => callsTo(calls, deleteGasWallet).filter((c) => c.params.walletId === gasFeeWallet().id).length;
    tab('Gas Fee Funding Wallets');
    fireEvent.click(await row('Gas payer'));
    fireEvent.click(button(await drawer('Wallet Details'), 'Delete Wallet'));
    let modal = await dialog('Delete Wallet');
    expect(within(modal).getByText(`Gas payer (${gasFeeWallet().publicAddress})`)).toBeTruthy();
    expect(within(modal).getByText(ForwardingMessages.deleteWarning)).toBeTruthy();
    fireEvent.click(button(modal, 'Cancel'));
    await waitFor(() => expect(screen.queryByText(ForwardingMessages.deleteWarning)).toBeNull());
    expect(deleted()).toBe(0);

    fireEvent.click(button(await drawer('Wallet Details'), 'Delete Wallet'));
    modal = await dialog('Delete Wallet');
    fireEvent.click(button(modal, 'Delete'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been deleted'));
    expect(deleted()).toBe(1);
    expect(
      await screen.findByText(
        'No gas fee funding wallets yet. Create one with Create Wallet to pay the gas of ERC20 forwards.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Wallet Details')).toBeNull();
  });
});
