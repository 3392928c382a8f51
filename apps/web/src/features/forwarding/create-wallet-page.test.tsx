import { endpoints, ForwardingMessages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { callsTo, type FetchCall, setUpPageTests } from '../../testing/page-test-kit';
import { CreateWalletPage } from './create-wallet-page';
import {
  CONTRACT,
  choose,
  destination,
  dialog,
  emptyState,
  gasFeeWallet,
  locationState,
  optionsOf,
  ROUTES,
  renderRoutes,
  type ServerState,
  SIGNING_SECRET,
  serveForwarding,
} from './forwarding-test-kit';

setUpPageTests();

const M = ForwardingMessages;
const F = endpoints.forwarding;
const { signingSecret } = endpoints.accounts;
const posts = (calls: FetchCall[]) => calls.filter((c) => c.method === 'POST');

/** The page opened directly (no lists handed over) or from the wallet list (`handedOver`). */
function open(state: ServerState = emptyState(), handedOver?: unknown) {
  const calls = serveForwarding(state);
  renderRoutes(
    ROUTES.createWallet,
    { '/account/:accountId/services/token-forwarding/wallets/create': <CreateWalletPage /> },
    handedOver,
  );
  return calls;
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create' }));
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
/** The validation messages on screen, in form order. */
const shownMessages = async (expected: string[]) => {
  await waitFor(() => {
    const shown = [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
    expect(shown).toEqual(expected);
  });
};
const networksLoaded = async () =>
  waitFor(() => expect(document.querySelector('.ant-select-arrow-loading')).toBeNull());

describe('CreateWalletPage: validation of each wallet type', () => {
  it('a token forwarding wallet (the default) needs network, token, amount and destination', async () => {
    const calls = open();
    await networksLoaded();
    expect(screen.getByText('Token Forwarding Wallet')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Minimum Forwarding Amount'), { target: { value: '' } });
    submit();
    await shownMessages([
      M.networkRequired,
      M.tokenRequired,
      M.minimumForwardingAmountRequired,
      M.destinationPublicAddressRequired,
    ]);
    expect(screen.queryByLabelText('Smart Contract Address')).toBeNull();
    expect(screen.queryByLabelText('Gas Fee Funding Wallet ID')).toBeNull();
    expect(posts(calls)).toHaveLength(0);
  });

  it('choosing ERC20 reveals the contract address and gas fee wallet, both required', async () => {
    open();
    await networksLoaded();
    await choose('Network', 'ETHEREUM SEPOLIA');
    await choose('Token', 'ERC20');
    expect(await screen.findByLabelText('Smart Contract Address')).toBeTruthy();
    expect(screen.getByLabelText('Gas Fee Funding Wallet ID')).toBeTruthy();
    submit();
    await shownMessages([
      M.smartContractAddressRequired,
      M.destinationPublicAddressRequired,
      M.gasFeeFundingWalletIdRequired,
    ]);
  });

  it('a webhook URL makes its header and header value required', async () => {
    open();
    await networksLoaded();
    type('Webhook URL', 'https://hooks.example.com/in');
    submit();
    await waitFor(() => expect(screen.getByText(M.webhookHeaderRequired)).toBeTruthy());
    expect(screen.getByText(M.webhookHeaderValueRequired)).toBeTruthy();
    type('Webhook URL', '   ');
    submit();
    await waitFor(() => expect(screen.queryByText(M.webhookHeaderRequired)).toBeNull());
  });

  it('a gas fee funding wallet needs a network and a name, and nothing else', async () => {
    open();
    await networksLoaded();
    await choose('Wallet Type', 'Gas Fee Funding Wallet');
    await screen.findByLabelText('Name');
    expect(screen.queryByLabelText('Token')).toBeNull();
    expect(screen.queryByLabelText('Destination Public Address')).toBeNull();
    expect(screen.queryByLabelText('Webhook URL')).toBeNull();
    type('Name', '   ');
    submit();
    await shownMessages([M.networkRequired, M.nameRequired]);
  });

  it('a destination wallet needs a network, a name and a typed address', async () => {
    open();
    await networksLoaded();
    await choose('Wallet Type', 'Destination Wallet');
    await screen.findByLabelText('Name');
    expect(screen.getByLabelText('Destination Public Address').tagName).toBe('INPUT');
    expect(screen.getByLabelText('Destination Public Address').getAttribute('role')).toBeNull();
    submit();
    await shownMessages([M.networkRequired, M.nameRequired, M.destinationPublicAddressRequired]);
  });
});

describe('CreateWalletPage: fields that follow the network', () => {
  it('a new network clears the token and offers that network’s tokens', async () => {
    open();
    await networksLoaded();
    expect(await optionsOf('Network')).toEqual(['ETHEREUM SEPOLIA', 'BSC TESTNET']);
    await choose('Network', 'ETHEREUM SEPOLIA');
    expect(await optionsOf('Token')).toEqual(['ETH', 'ERC20']);
    await choose('Token', 'ERC20');
    await screen.findByLabelText('Smart Contract Address');
    const chosenToken = () =>
      screen.getByLabelText('Token').closest('.ant-select')?.querySelector('.ant-select-selection-item')?.textContent;
    expect(chosenToken()).toBe('ERC20');

    await choose('Network', 'BSC TESTNET');
    await waitFor(() => expect(screen.queryByLabelText('Smart Contract Address')).toBeNull());
    expect(chosenToken()).toBeUndefined();
    expect(await optionsOf('Token')).toEqual(['BNB', 'ERC20']);
  });

  it('offers the handed-over destination and gas fee wallets of the chosen network, without fetching them', async () => {
    const calls = open(emptyState(), {
      destinationWallets: [destination(), destination({ id: 'x', name: 'BSC cold', network: 'BSC_TESTNET' })],
      gasFeeFundingWallets: [gasFeeWallet()],
    });
    await networksLoaded();
    await choose('Network', 'ETHEREUM SEPOLIA');
    await choose('Token', 'ERC20');
    await screen.findByLabelText('Gas Fee Funding Wallet ID');
    expect(await optionsOf('Destination Public Address')).toEqual([
      `Treasury (${destination().destinationPublicAddress})`,
      '+ Create a new destination wallet',
    ]);
    expect(await optionsOf('Gas Fee Funding Wallet ID')).toEqual([
      'Gas payer (0.5 ETH)',
      '+ Create a new gas fee funding wallet',
    ]);
    expect(callsTo(calls, F.listDestinations)).toHaveLength(0);
    expect(callsTo(calls, F.listGasWallets)).toHaveLength(0);
  });

  it('opened directly, fetches the destination and gas fee wallets itself', async () => {
    const calls = open(emptyState({ destinations: [destination()] }));
    await waitFor(() => expect(callsTo(calls, F.listDestinations)).toHaveLength(1));
    expect(callsTo(calls, F.listGasWallets)).toHaveLength(1);
    await choose('Network', 'ETHEREUM SEPOLIA');
    expect(await optionsOf('Destination Public Address')).toContain(
      `Treasury (${destination().destinationPublicAddress})`,
    );
  });
});

describe('CreateWalletPage: Verify and Test', () => {
  it('Verify is disabled while the address is empty, refuses a blank one, and shows the contract', async () => {
    const calls = open();
    await networksLoaded();
    await choose('Network', 'ETHEREUM SEPOLIA');
    await choose('Token', 'ERC20');
    const verify = await screen.findByRole('button', { name: 'Verify' });
    expect((verify as HTMLButtonElement).disabled).toBe(true);
    type('Smart Contract Address', '  ');
    fireEvent.click(verify);
    expect(await screen.findByText(M.smartContractAddressRequired)).toBeTruthy();

    type('Smart Contract Address', CONTRACT);
    fireEvent.click(verify);
    const modal = await dialog('Smart Contract Information');
    expect(within(modal).getByText('Test Token')).toBeTruthy();
    expect(within(modal).getByText('TST')).toBeTruthy();
    expect(within(modal).getByText(CONTRACT)).toBeTruthy();
    expect(callsTo(calls, F.contractInfo)[0]?.query).toEqual({
      network: 'ETHEREUM_SEPOLIA',
      smartContractAddress: CONTRACT,
    });
  });

  it('Test is disabled while the URL is empty, sends the trimmed webhook and shows the answer as JSON', async () => {
    const calls = open();
    await networksLoaded();
    const test = screen.getByRole('button', { name: 'Test' }) as HTMLButtonElement;
    expect(test.disabled).toBe(true);
    type('Webhook URL', '   ');
    fireEvent.click(test);
    expect(await screen.findByText(M.webhookUrlRequired)).toBeTruthy();
    expect(callsTo(calls, F.testWebhook)).toHaveLength(0);

    type('Webhook URL', ' https://hooks.example.com/in ');
    type('Webhook Header', ' x-token ');
    type('Webhook Header Value', ' Bearer abc ');
    fireEvent.click(test);
    const modal = await dialog('Webhook Response');
    expect(callsTo(calls, F.testWebhook)[0]?.body).toEqual({
      url: 'https://hooks.example.com/in',
      header: 'x-token',
      headerValue: 'Bearer abc',
    });
    expect(JSON.parse(within(modal).getByTestId('webhook-response').textContent ?? '')).toEqual({
      url: 'https://hooks.example.com/in',
      status: 200,
      body: '{"ok":true}',
    });
  });
});

describe('CreateWalletPage: creating', () => {
  it('creates an ERC20 forwarding wallet with its webhook and the signing secret, then goes back to the list', async () => {
    const calls = open(emptyState(), { destinationWallets: [destination()], gasFeeFundingWallets: [gasFeeWallet()] });
    await networksLoaded();
    await choose('Network', 'ETHEREUM SEPOLIA');
    await choose('Token', 'ERC20');
    type('Smart Contract Address', ` ${CONTRACT} `);
    await choose('Destination Public Address', `Treasury (${destination().destinationPublicAddress})`);
    await choose('Gas Fee Funding Wallet ID', 'Gas payer (0.5 ETH)');
    type('Webhook URL', 'https://hooks.example.com/in ');
    type('Webhook Header', 'x-token');
    type('Webhook Header Value', 'abc');
    submit();

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been created.'));
    expect(callsTo(calls, signingSecret)).toHaveLength(1);
    expect(callsTo(calls, F.createWallet)[0]?.body).toEqual({
      network: 'ETHEREUM_SEPOLIA',
      token: 'ERC20',
      smartContractAddress: CONTRACT,
      gasFeeFundingWalletId: gasFeeWallet().id,
      minimumForwardingAmount: 0.00001,
      destinationPublicAddress: destination().destinationPublicAddress,
      webhookSetting: {
        url: 'https://hooks.example.com/in',
        header: 'x-token',
        headerValue: 'abc',
        secret: SIGNING_SECRET,
      },
    });
    expect(await screen.findByText(`Elsewhere: ${ROUTES.wallets}`)).toBeTruthy();
  });

  it('creates a native-token forwarding wallet without a webhook and without fetching the secret', async () => {
    const calls = open(emptyState(), { destinationWallets: [destination()], gasFeeFundingWallets: [] });
    await networksLoaded();
    await choose('Network', 'ETHEREUM SEPOLIA');
    await choose('Token', 'ETH');
    await choose('Destination Public Address', `Treasury (${destination().destinationPublicAddress})`);
    fireEvent.change(screen.getByLabelText('Minimum Forwarding Amount'), { target: { value: '0.5' } });
    submit();

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been created.'));
    expect(posts(calls)).toHaveLength(1);
    expect(callsTo(calls, F.createWallet).map((c) => c.body)).toEqual([
      {
        network: 'ETHEREUM_SEPOLIA',
        token: 'ETH',
        minimumForwardingAmount: 0.5,
        destinationPublicAddress: destination().destinationPublicAddress,
      },
    ]);
    expect(callsTo(calls, signingSecret)).toHaveLength(0);
  });

  it('creates a destination wallet with trimmed name and address', async () => {
    const calls = open();
    await networksLoaded();
    await choose('Wallet Type', 'Destination Wallet');
    await choose('Network', 'BSC TESTNET');
    type('Name', ' Exchange ');
    type('Destination Public Address', ` ${destination().destinationPublicAddress} `);
    submit();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been created.'));
    expect(posts(calls)).toHaveLength(1);
    expect(callsTo(calls, F.createDestination).map((c) => c.body)).toEqual([
      {
        network: 'BSC_TESTNET',
        name: 'Exchange',
        destinationPublicAddress: destination().destinationPublicAddress,
      },
    ]);
  });

  it('creates a gas fee funding wallet from network and name', async () => {
    const calls = open();
    await networksLoaded();
    await choose('Wallet Type', 'Gas Fee Funding Wallet');
    await choose('Network', 'ETHEREUM SEPOLIA');
    type('Name', 'Gas payer');
    submit();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Wallet has been created.'));
    expect(posts(calls)).toHaveLength(1);
    expect(callsTo(calls, F.createGasWallet).map((c) => c.body)).toEqual([
      { network: 'ETHEREUM_SEPOLIA', name: 'Gas payer' },
    ]);
    // Back to the list, asked to open on the tab of the wallet just made.
    expect(await screen.findByText(`Elsewhere: ${ROUTES.wallets}`)).toBeTruthy();
    expect(locationState()).toEqual({ tab: 'gasFeeFundingWallets' });
  });
});
