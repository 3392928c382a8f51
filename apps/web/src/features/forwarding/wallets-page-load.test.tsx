import { endpoints, Messages } from '@ebs/contract';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { stubClipboard } from '../../testing/clipboard';
import { callsTo, failed, on, setUpPageTests } from '../../testing/page-test-kit';
import {
  ADDRESS_A,
  ADDRESS_B,
  drawer,
  emptyState,
  forwardingWallet,
  ROUTES,
  renderRoutes,
  serveForwarding,
} from './forwarding-test-kit';
import { WalletsPage } from './wallets-page';

setUpPageTests();

const { listWallets, listDestinations } = endpoints.forwarding;
const activePane = () => document.querySelector('.ant-tabs-tabpane-active') as HTMLElement;
const WALLET = forwardingWallet({ publicAddress: ADDRESS_A, destinationPublicAddress: ADDRESS_B });

describe('WalletsPage: a failed load and the copy buttons', () => {
  it('says what to do when the wallets fail to load, and Try again fetches them again', async () => {
    let failures = 1;
    const state = emptyState({ wallets: [WALLET] });
    const calls = serveForwarding(
      state,
      on(listWallets, () => {
        if (failures === 0) return undefined;
        failures -= 1;
        return failed(503, 'Wallets are resting');
      }),
    );
    renderRoutes(ROUTES.wallets, { '/account/:accountId/services/token-forwarding/wallets': <WalletsPage /> });

    const pane = activePane();
    expect(await within(pane).findByText(/Wallets are resting Check your connection, then try again\./)).toBeTruthy();
    expect(within(pane).queryByText('No token forwarding wallets yet. Create one with Create Wallet.')).toBeNull();

    fireEvent.click(within(pane).getByRole('button', { name: 'Try again' }));
    expect(await within(pane).findByText(ADDRESS_A)).toBeTruthy();
    expect(callsTo(calls, listWallets)).toHaveLength(2);
    expect(callsTo(calls, listDestinations)).toHaveLength(1);
  });

  it('copies the wallet and destination addresses from the details, each with its own button', async () => {
    const writeText = stubClipboard();
    serveForwarding(emptyState({ wallets: [WALLET] }));
    renderRoutes(ROUTES.wallets, { '/account/:accountId/services/token-forwarding/wallets': <WalletsPage /> });

    fireEvent.click(await within(activePane()).findByText(ADDRESS_A));
    const details = await drawer('Wallet Details');

    fireEvent.click(within(details).getByRole('button', { name: 'Copy Address' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(ADDRESS_A));
    fireEvent.click(within(details).getByRole('button', { name: 'Copy Destination Public Address' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(ADDRESS_B));
    expect(toast.success).toHaveBeenCalledWith(Messages.copied);
    expect(within(details).getByRole('button', { name: 'Copy ID' })).toBeTruthy();
  });
});
