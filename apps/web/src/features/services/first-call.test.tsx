import { endpoints } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberKeySecret } from '../../session/key-secrets';
import { apiKey, keyList } from '../../testing/api-keys';
import {
  endpointCall,
  type FetchCall,
  renderPage,
  serveFetch,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { RpcServicePage } from './rpc-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const API = 'https://api.example.com';
const PROD = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const STAGING = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const slow = { timeout: 8000 };

/** The RPC page over the configuration, two keys, and a gateway that answers eth_blockNumber. */
function open() {
  const calls = serveFetch((call: FetchCall) => {
    if (endpointCall(endpoints.system.config, call)) {
      return wrapped({ appEnv: 'test', docsUrl: '', apiBase: API, productName: 'EBS Console' });
    }
    if (endpointCall(endpoints.keys.list, call)) {
      return wrapped(keyList([apiKey(PROD, 'Production', 'ACTIVE'), apiKey(STAGING, 'Staging', 'INACTIVE')]));
    }
    if (call.method === 'POST' && call.url === `${window.location.origin}/api/v1.0/rpc/ethereum/mainnet`) {
      const body = call.body as { id: number; method: string };
      return { status: 200, body: { jsonrpc: '2.0', id: body.id, result: '0x12d687' } };
    }
    return undefined;
  });
  renderPage(`/account/${ACCOUNT}/services/rpc`, '/account/:accountId/services/rpc', <RpcServicePage />);
  return calls;
}

const makeACall = async () =>
  (await screen.findByText('Make a call', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;

async function chooseKey(name: string) {
  const picker = screen.getByLabelText('Key');
  fireEvent.mouseDown(picker);
  fireEvent.click(await screen.findByText(name, { selector: '.ant-select-item-option-content' }));
}

setUpPageTests();
afterEach(() => vi.unstubAllGlobals());

describe('RpcServicePage: a first call', () => {
  it('chooses a key by name: its id fills in, a secret pasted once is kept in this tab for the next choice', async () => {
    open();
    await waitFor(() => expect(screen.getByLabelText('Key').closest('.ant-select-disabled')).toBeNull(), slow);
    await chooseKey('Production');
    expect((screen.getByLabelText('API key ID') as HTMLInputElement).value).toBe(PROD);
    expect(screen.getByText(/Paste this key's secret in API key above/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'prod-secret' } });
    await waitFor(() =>
      expect((screen.getByLabelText('Ethereum Mainnet URL') as HTMLTextAreaElement).value).toBe(
        `${API}/api/v1.0/rpc/ethereum/mainnet?x-api-key-id=${PROD}&x-api-key=prod-secret`,
      ),
    );

    await chooseKey('Staging (INACTIVE)');
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('');
    await chooseKey('Production');
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('prod-secret');
  });

  it('picks a network, shows its URL and snippets with the key, and sends a request with the key in headers', async () => {
    rememberKeySecret(PROD, 'kept-secret');
    const calls = open();
    const card = await makeACall();
    const send = within(card).getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(within(card).getByText('Choose a key and paste its secret first.')).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText('Key').closest('.ant-select-disabled')).toBeNull(), slow);
    await chooseKey('Production');

    const url = `${API}/api/v1.0/rpc/ethereum/mainnet`;
    expect((within(card).getByLabelText(/^URL \(send the key/) as HTMLInputElement).value).toBe(url);
    expect((within(card).getByLabelText(/^URL with the key in it/) as HTMLInputElement).value).toBe(
      `${url}?x-api-key-id=${PROD}&x-api-key=kept-secret`,
    );
    expect(within(card).getByRole('region', { name: 'curl' }).textContent).toContain(`-H 'x-api-key: kept-secret'`);
    for (const label of ['curl', 'viem', 'ethers', 'web3.py']) {
      expect(within(card).getByRole('tab', { name: label })).toBeTruthy();
    }

    fireEvent.click(within(card).getByRole('button', { name: 'Send' }));
    const answer = (await within(card).findByLabelText('Answer')) as HTMLTextAreaElement;
    expect(JSON.parse(answer.value)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x12d687' });
    expect(within(card).getByText(/^HTTP 200 in \d+ ms/)).toBeTruthy();
    // Sent from the page's own origin (its connect-src), which serves the gateway too.
    const sentTo = `${window.location.origin}/api/v1.0/rpc/ethereum/mainnet`;
    const sent = calls.filter((c) => c.url === sentTo);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers).toMatchObject({ 'x-api-key-id': PROD, 'x-api-key': 'kept-secret' });
    expect(sent[0]?.body).toEqual({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });

    // Params that are not a JSON array are refused here, and nothing is sent.
    fireEvent.change(within(card).getByLabelText('Params (a JSON array)'), { target: { value: '{"a":1}' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Send' }));
    expect(await within(card).findByText(/Params must be a JSON array/)).toBeTruthy();
    expect(calls.filter((c) => c.url === sentTo)).toHaveLength(1);
  });

  it('offers Add to MetaMask only with a wallet on the page, and asks it to add the chain with the key URL', async () => {
    open();
    expect(within(await makeACall()).queryByRole('button', { name: 'Add to MetaMask' })).toBeNull();
  });

  it('adds the chosen network to a wallet with EIP-3085, the URL carrying the key', async () => {
    const request = vi.fn(async () => null);
    vi.stubGlobal('ethereum', { request });
    rememberKeySecret(PROD, 'kept-secret');
    open();
    const card = await makeACall();
    await waitFor(() => expect(screen.getByLabelText('Key').closest('.ant-select-disabled')).toBeNull(), slow);
    await chooseKey('Production');
    fireEvent.mouseDown(within(card).getByLabelText('Network'));
    fireEvent.click(await screen.findByText('Polygon Testnet', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Add to MetaMask' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request).toHaveBeenCalledWith({
      method: 'wallet_addEthereumChain',
      params: [
        {
          chainId: '0x13882',
          chainName: 'Polygon Testnet',
          rpcUrls: [`${API}/api/v1.0/rpc/polygon/amoy?x-api-key-id=${PROD}&x-api-key=kept-secret`],
          nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
        },
      ],
    });
  });
});
