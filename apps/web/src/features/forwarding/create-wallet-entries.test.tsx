import { endpoints } from '@ebs/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { callsTo, setUpPageTests } from '../../testing/page-test-kit';
import { CreateWalletPage } from './create-wallet-page';
import {
  ADDRESS_B,
  CONTRACT,
  choose,
  destination,
  emptyState,
  gasFeeWallet,
  ROUTES,
  renderRoutes,
  serveForwarding,
} from './forwarding-test-kit';

setUpPageTests();

/** spec B §2: the create entries of the wallet selects reset the form and switch the wallet type. */

function open() {
  const calls = serveForwarding(emptyState());
  renderRoutes(
    ROUTES.createWallet,
    { '/account/:accountId/services/token-forwarding/wallets/create': <CreateWalletPage /> },
    { destinationWallets: [destination()], gasFeeFundingWallets: [gasFeeWallet()] },
  );
  return calls;
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const typedIn = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;
/** The chosen option's text in the antd select labelled `field`, or undefined when none is chosen. */
const chosen = (field: string) =>
  screen.getByLabelText(field).closest('.ant-select')?.querySelector('.ant-select-selection-item')?.textContent;
const errorsShown = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);

/** An ERC20 forwarding wallet on Ethereum Sepolia, filled in except for the destination, with its errors shown. */
async function fillForwardingWallet() {
  await waitFor(() => expect(document.querySelector('.ant-select-arrow-loading')).toBeNull());
  await choose('Network', 'ETHEREUM SEPOLIA');
  await choose('Token', 'ERC20');
  type('Smart Contract Address', CONTRACT);
  type('Minimum Forwarding Amount', '0.5');
  type('Webhook URL', 'https://hooks.example.com/in');
  fireEvent.click(screen.getByRole('button', { name: 'Create' }));
  await waitFor(() => expect(errorsShown()).toContain('Destination Public Address is required.'));
}

describe('CreateWalletPage: the create entries of the wallet selects', () => {
  it('the create-destination entry starts over as a destination wallet on the same network, the other fields cleared', async () => {
    open();
    await fillForwardingWallet();
    await choose('Gas Fee Funding Wallet ID', 'Gas payer (0.5 ETH)');
    await choose('Destination Public Address', `Treasury (${ADDRESS_B})`);
    await choose('Destination Public Address', '+ Create a new destination wallet');

    await screen.findByLabelText('Name');
    expect(chosen('Wallet Type')).toBe('Destination Wallet');
    expect(chosen('Network')).toBe('ETHEREUM SEPOLIA');
    expect(typedIn('Name')).toBe('');
    // The destination picked before is not carried into the new wallet's address.
    expect(typedIn('Destination Public Address')).toBe('');
    for (const gone of ['Token', 'Smart Contract Address', 'Minimum Forwarding Amount', 'Webhook URL']) {
      expect(screen.queryByLabelText(gone)).toBeNull();
    }
    expect(errorsShown()).toEqual([]);
  });

  it('the create-gas-fee entry starts over as a gas fee funding wallet on the same network', async () => {
    const calls = open();
    await fillForwardingWallet();
    await choose('Gas Fee Funding Wallet ID', '+ Create a new gas fee funding wallet');

    await screen.findByLabelText('Name');
    expect(chosen('Wallet Type')).toBe('Gas Fee Funding Wallet');
    expect(chosen('Network')).toBe('ETHEREUM SEPOLIA');
    expect(typedIn('Name')).toBe('');
    for (const gone of [
      'Token',
      'Smart Contract Address',
      'Minimum Forwarding Amount',
      'Destination Public Address',
      'Gas Fee Funding Wallet ID',
      'Webhook URL',
    ]) {
      expect(screen.queryByLabelText(gone)).toBeNull();
    }
    expect(errorsShown()).toEqual([]);

    type('Name', 'Fuel tank');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been created.'));
    // The one POST is the gas fee funding wallet's create.
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(callsTo(calls, endpoints.forwarding.createGasWallet).map((c) => c.body)).toEqual([
      { network: 'ETHEREUM_SEPOLIA', name: 'Fuel tank' },
    ]);
  });
});
