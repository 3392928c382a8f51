import { getAddress, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { deployTestToken } from '../../testing/contracts/test-token.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { randomAddress } from './forwarding.test-kit.ts';
import {
  expectNothingChanged,
  expectRefused,
  owner,
  SEPOLIA,
  SEPOLIA_CHAIN_ID,
  sepoliaOn,
  UNKNOWN_ID,
} from './forwarding-api.test-kit.ts';

const anvil = await startAnvil(SEPOLIA_CHAIN_ID);
afterAll(() => anvil.stop());
let token: `0x${string}`;
beforeAll(async () => {
  token = getAddress(
    await deployTestToken(anvil.url, DEV_PRIVATE_KEY, {
      name: 'Refusal Token',
      symbol: 'RFT',
      decimals: 18,
      supply: parseUnits('1000', 18),
    }),
  );
});

// Any checksummed address serves; this one (Anvil's first account) has upper- and lower-case letters.
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const NATIVE = { network: SEPOLIA, token: 'ETH', minimumForwardingAmount: '1', destinationPublicAddress: ADDRESS };
const ERC20 = { ...NATIVE, token: 'ERC20', smartContractAddress: ADDRESS, gasFeeFundingWalletId: UNKNOWN_ID };
const HOOK = { url: 'https://example.com/hook', header: 'X-Shop-Token', headerValue: 'shop-123' };

type Call = { method: 'GET' | 'POST' | 'DELETE'; path: string; body: Record<string, unknown> };
const post = (path: string, body: Record<string, unknown>): Call => ({ method: 'POST', path, body });

const DESTINATION = { network: SEPOLIA, name: 'T', destinationPublicAddress: ADDRESS };
const CONTRACT = { network: SEPOLIA, smartContractAddress: ADDRESS };
const network = { network: 'Network is required.' };
const name = { name: 'Name is required.' };
const destination = { destinationPublicAddress: 'Destination Public Address is required.' };
const selected = { id: 'Please select a wallet.' };

/** spec B §5: each call with a body holding every field, and the message each required field has when missing. */
const REQUIRED: Array<[Call, Record<string, string>]> = [
  [post('/gas-fee-funding-wallet', { network: SEPOLIA, name: 'Gas' }), { ...network, ...name }],
  [post('/gas-fee-funding-wallet/name', { id: UNKNOWN_ID, name: 'Gas' }), { ...selected, ...name }],
  [post('/gas-fee-funding-wallet/balance', { id: UNKNOWN_ID }), selected],
  [post('/destination', DESTINATION), { ...network, ...name, ...destination }],
  [post('/destination/name', DESTINATION), { ...network, ...name, ...destination }],
  [
    { method: 'DELETE', path: '/destination', body: { network: SEPOLIA, destinationPublicAddress: ADDRESS } },
    { ...network, ...destination },
  ],
  [
    post('/wallet', NATIVE),
    {
      ...network,
      token: 'Token is required.',
      minimumForwardingAmount: 'Minimum Forwarding Amount is required.',
      ...destination,
    },
  ],
  [
    post('/wallet', ERC20),
    {
      smartContractAddress: 'Smart Contract Address is required.',
      gasFeeFundingWalletId: 'Gas Fee Funding Wallet ID is required.',
    },
  ],
  [post('/wallet/status', { id: UNKNOWN_ID, newStatus: 'DISABLED' }), selected],
  [post('/testWebhook', HOOK), { url: 'Webhook URL is required.' }],
  [
    { method: 'GET', path: '/smart-contract-info', body: CONTRACT },
    { ...network, smartContractAddress: 'Smart Contract Address is required.' },
  ],
];
const MISSING = REQUIRED.flatMap(([call, fields]) =>
  Object.entries(fields).map(([field, message]) => ({
    name: `${call.method} ${call.path}${call.body.token ? ` (${call.body.token})` : ''}`,
    call,
    field,
    message,
  })),
);

describe.each(testDatabases)('token forwarding input refusals on $name', (database) => {
  const server = serverFor(database, { ...sepoliaOn(anvil.url), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });

  /** An account holding one wallet of each kind, so a refused call has rows it could have changed. */
  async function seeded() {
    const o = await owner(server());
    await o.make.destination(ADDRESS);
    await o.make.gasWallet();
    await o.make.nativeWallet(ADDRESS);
    const send = (call: Call) =>
      call.method === 'GET'
        ? o.api.get(`${call.path}?${new URLSearchParams(call.body as Record<string, string>)}`)
        : call.method === 'DELETE'
          ? o.api.delete(call.path, call.body)
          : o.api.post(call.path, call.body);
    return { ...o, send };
  }

  it.each(MISSING)('$name: a missing or blank $field is $message', async ({ call, field, message }) => {
    const o = await seeded();
    const without = Object.fromEntries(Object.entries(call.body).filter(([name]) => name !== field));
    await expectNothingChanged(server(), o.accountId, async () => {
      expectRefused(await o.send({ ...call, body: without }), 400, message);
      for (const blank of ['', '   ', '\t\n']) {
        expectRefused(await o.send({ ...call, body: { ...call.body, [field]: blank } }), 400, message);
      }
      if (call.method !== 'GET')
        expectRefused(await o.send({ ...call, body: { ...call.body, [field]: null } }), 400, message);
    });
  });

  it('asks for the webhook header and its value when a webhook URL is given', async () => {
    const o = await seeded();
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const header of [undefined, '', '  ']) {
        const webhookSetting = { url: HOOK.url, header, headerValue: 'v' };
        expectRefused(await o.api.post('/wallet', { ...NATIVE, webhookSetting }), 400, 'Webhook Header is required.');
      }
      for (const headerValue of [undefined, '', '  ']) {
        const webhookSetting = { url: HOOK.url, header: 'X-Token', headerValue };
        expectRefused(
          await o.api.post('/wallet', { ...NATIVE, webhookSetting }),
          400,
          'Webhook Header Value is required.',
        );
      }
    });
  });

  it('refuses an unknown network and a Bitcoin network on every call that names one', async () => {
    const o = await seeded();
    const calls = (network: string): Call[] => [
      post('/gas-fee-funding-wallet', { network, name: 'Gas' }),
      post('/destination', { network, name: 'T', destinationPublicAddress: randomAddress() }),
      post('/destination/name', { network, name: 'T', destinationPublicAddress: ADDRESS }),
      { method: 'DELETE', path: '/destination', body: { network, destinationPublicAddress: ADDRESS } },
      post('/wallet', { ...NATIVE, network }),
      post('/wallet', { ...ERC20, network, smartContractAddress: token }),
      { method: 'GET', path: '/smart-contract-info', body: { network, smartContractAddress: token } },
    ];
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const call of calls('ETHEREUM_GOERLI')) {
        expectRefused(await o.send(call), 400, 'Unknown network "ETHEREUM_GOERLI".');
      }
      for (const [network, shown] of [
        ['BITCOIN_MAINNET', 'BITCOIN MAINNET'],
        ['BITCOIN_TESTNET', 'BITCOIN TESTNET'],
      ] as const) {
        for (const call of calls(network)) {
          expectRefused(await o.send(call), 400, `${shown} is not supported for token forwarding on this service.`);
        }
      }
    });
  });

  it("refuses a token that is not the network's native token or ERC20", async () => {
    const o = await seeded();
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const token of ['BTC', 'BNB', 'erc20', 'USDT']) {
        expectRefused(
          await o.api.post('/wallet', { ...NATIVE, token }),
          400,
          'Token must be one of ETH, ERC20 on ETHEREUM SEPOLIA.',
        );
      }
      expectRefused(
        await o.api.post('/wallet', { ...NATIVE, network: 'BSC_TESTNET', token: 'ETH' }),
        400,
        'Token must be one of BNB, ERC20 on BSC TESTNET.',
      );
    });
  });

  it('refuses malformed destination and contract addresses, a wrong checksum included', async () => {
    const o = await seeded();
    const wrongChecksum = '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
    const destinationMessage = 'Destination Public Address must be a 0x address of 40 hexadecimal characters.';
    const contractMessage = 'Smart Contract Address must be a 0x address of 40 hexadecimal characters.';
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const bad of ['0x123', 'my wallet', ADDRESS.slice(2), `${ADDRESS}00`, wrongChecksum]) {
        const destination = { network: SEPOLIA, name: 'T', destinationPublicAddress: bad };
        expectRefused(await o.api.post('/destination', destination), 400, destinationMessage);
        expectRefused(await o.api.post('/destination/name', destination), 400, destinationMessage);
        expectRefused(await o.api.delete('/destination', { ...destination, name: undefined }), 400, destinationMessage);
        expectRefused(
          await o.api.post('/wallet', { ...NATIVE, destinationPublicAddress: bad }),
          400,
          destinationMessage,
        );
        expectRefused(await o.api.post('/wallet', { ...ERC20, smartContractAddress: bad }), 400, contractMessage);
        const query = new URLSearchParams({ network: SEPOLIA, smartContractAddress: bad });
        expectRefused(await o.api.get(`/smart-contract-info?${query}`), 400, contractMessage);
      }
    });
  });

  it('refuses a minimum forwarding amount outside 0 to 100 or with more than 5 decimals', async () => {
    const o = await seeded();
    const message = 'Minimum Forwarding Amount must be a number from 0 to 100 with at most 5 decimals.';
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const amount of [-1, '-1', 100.00001, '100.00001', 101, '101', 'abc', '0.000001', 0.000001, 12.345678]) {
        expectRefused(await o.api.post('/wallet', { ...NATIVE, minimumForwardingAmount: amount }), 400, message);
      }
    });
  });

  it('refuses as a contract an address that holds no contract', async () => {
    const o = await seeded();
    const eoa = getAddress(randomAddress());
    const message = `${eoa} is not an ERC-20 contract on this network (no name and symbol).`;
    await expectNothingChanged(server(), o.accountId, async () => {
      const query = new URLSearchParams({ network: SEPOLIA, smartContractAddress: eoa.toLowerCase() });
      expectRefused(await o.api.get(`/smart-contract-info?${query}`), 400, message);
      expectRefused(await o.api.post('/wallet', { ...ERC20, smartContractAddress: eoa }), 400, message);
    });
  });

  it('refuses a webhook URL that is not http(s), and a header the delivery sets itself or cannot send', async () => {
    const o = await seeded();
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const url of [
        'ftp://example.com/hook',
        'not a url',
        'javascript:alert(1)',
        'https://user:pw@example.com/',
      ]) {
        const message = 'Webhook URL must be an http or https URL.';
        expectRefused(await o.api.post('/wallet', { ...NATIVE, webhookSetting: { ...HOOK, url } }), 400, message);
        expectRefused(await o.api.post('/testWebhook', { ...HOOK, url }), 400, message);
      }
      for (const header of ['webhook-signature', 'Webhook-Id', 'Content-Type']) {
        const message = `Webhook Header must not be "${header}": every delivery sets it.`;
        expectRefused(await o.api.post('/wallet', { ...NATIVE, webhookSetting: { ...HOOK, header } }), 400, message);
        expectRefused(await o.api.post('/testWebhook', { ...HOOK, header }), 400, message);
      }
      const badName = { ...HOOK, header: 'X Shop: Token' };
      const nameMessage = 'Webhook Header must be a valid HTTP header name.';
      expectRefused(await o.api.post('/wallet', { ...NATIVE, webhookSetting: badName }), 400, nameMessage);
      expectRefused(await o.api.post('/testWebhook', badName), 400, nameMessage);
      const badValue = { ...HOOK, headerValue: 'a\r\nX-Injected: 1' };
      const valueMessage = 'Webhook Header Value must not contain line breaks.';
      expectRefused(await o.api.post('/wallet', { ...NATIVE, webhookSetting: badValue }), 400, valueMessage);
      expectRefused(await o.api.post('/testWebhook', badValue), 400, valueMessage);
    });
  });

  it('refuses fields a call does not take, and statusIn naming an unknown status', async () => {
    const o = await seeded();
    await expectNothingChanged(server(), o.accountId, async () => {
      const extra = { extra: 1 };
      for (const call of [
        post('/gas-fee-funding-wallet', { network: SEPOLIA, name: 'Gas', ...extra }),
        post('/gas-fee-funding-wallet/name', { id: UNKNOWN_ID, name: 'Gas', ...extra }),
        post('/gas-fee-funding-wallet/balance', { id: UNKNOWN_ID, ...extra }),
        post('/destination', { network: SEPOLIA, name: 'T', destinationPublicAddress: randomAddress(), ...extra }),
        post('/destination/name', { network: SEPOLIA, name: 'T', destinationPublicAddress: ADDRESS, ...extra }),
        {
          method: 'DELETE',
          path: '/destination',
          body: { network: SEPOLIA, destinationPublicAddress: ADDRESS, ...extra },
        },
        post('/wallet', { ...NATIVE, ...extra }),
        post('/wallet/status', { id: UNKNOWN_ID, newStatus: 'DISABLED', ...extra }),
        post('/testWebhook', { ...HOOK, ...extra }),
      ] as Call[]) {
        expectRefused(await o.send(call), 400, "body must not have property 'extra'");
      }
      expectRefused(
        await o.api.post('/wallet', { ...NATIVE, webhookSetting: { ...HOOK, extra: 1 } }),
        400,
        "body.webhookSetting must not have property 'extra'",
      );
      expectRefused(await o.api.get('/wallet?extra=1'), 400, "querystring must not have property 'extra'");
      const contractQuery = new URLSearchParams({ network: SEPOLIA, smartContractAddress: token, extra: '1' });
      expectRefused(
        await o.api.get(`/smart-contract-info?${contractQuery}`),
        400,
        "querystring must not have property 'extra'",
      );
      expectRefused(await o.api.get('/transaction?extra=1'), 400, "querystring must not have property 'extra'");
      const unknownStatus = encodeURIComponent(JSON.stringify(['ENABLED', 'PAUSED']));
      expectRefused(
        await o.api.get(`/wallet?statusIn=${unknownStatus}`),
        400,
        'statusIn names an unknown wallet status value: PAUSED',
      );
      expectRefused(
        await o.api.post('/wallet/status', { id: UNKNOWN_ID, newStatus: 'PAUSED' }),
        400,
        'newStatus must be ENABLED or DISABLED.',
      );
    });
  });
});
