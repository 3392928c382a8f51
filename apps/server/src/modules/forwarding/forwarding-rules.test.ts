import { FORWARDING_NETWORKS, ForwardingMessages as M, NETWORKS } from '@ebs/contract';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  checkAddress,
  checkMinimumAmount,
  checkName,
  checkNetwork,
  forwardingWalletRules,
  requiredFields,
} from './forwarding-rules.ts';

/** What a rule refused with: the HTTP status and the message the user reads. */
function refusal(run: () => unknown): { statusCode: number; message: string } {
  try {
    run();
  } catch (error) {
    const { statusCode, message } = error as { statusCode: number; message: string };
    return { statusCode, message };
  }
  throw new Error('the rule accepted the value');
}

async function asyncRefusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const { statusCode, message } = error as { statusCode: number; message: string };
    return { statusCode, message };
  }
  return undefined;
}

const badRequest = (message: string) => ({ statusCode: 400, message });

// Anvil's first development account, in its checksummed form.
const CHECKSUMMED = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('checkNetwork', () => {
  const evm = NETWORKS.filter((n) => FORWARDING_NETWORKS[n].kind === 'evm');

  it.each(evm)('takes %s', (network) => {
    expect(checkNetwork(network)).toBe(network);
  });

  it('trims the network it takes', () => {
    expect(checkNetwork('  ETHEREUM_SEPOLIA \n')).toBe('ETHEREUM_SEPOLIA');
  });

  it.each([undefined, null, '', '   ', 5, ['ETHEREUM_SEPOLIA']])('answers "Network is required." for %j', (value) => {
    expect(refusal(() => checkNetwork(value))).toEqual(badRequest('Network is required.'));
  });

  it.each(['ETHEREUM_GOERLI', 'ethereum_sepolia', 'METABIT_MAINNET'])('refuses the unknown network %s', (network) => {
    expect(refusal(() => checkNetwork(network))).toEqual(badRequest(`Unknown network "${network}".`));
  });

  it.each([
    ['BITCOIN_MAINNET', 'BITCOIN MAINNET'],
    ['BITCOIN_TESTNET', 'BITCOIN TESTNET'],
  ])('refuses %s, which this service cannot forward on', (network, shown) => {
    expect(refusal(() => checkNetwork(network))).toEqual(
      badRequest(`${shown} is not supported for token forwarding on this service.`),
    );
  });
});

describe('checkAddress', () => {
  it('answers the checksummed form of a lower-case, upper-case or checksummed address', () => {
    expect(checkAddress(CHECKSUMMED.toLowerCase(), 'Destination Public Address')).toBe(CHECKSUMMED);
    expect(checkAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`, 'Destination Public Address')).toBe(CHECKSUMMED);
    expect(checkAddress(CHECKSUMMED, 'Destination Public Address')).toBe(CHECKSUMMED);
    expect(checkAddress(`  ${CHECKSUMMED}\t`, 'Destination Public Address')).toBe(CHECKSUMMED);
  });

  it.each([
    ['a wrong checksum', `0xF${CHECKSUMMED.slice(3)}`],
    ['too few characters', CHECKSUMMED.slice(0, -1)],
    ['too many characters', `${CHECKSUMMED}0`],
    ['no 0x', CHECKSUMMED.slice(2)],
    ['an upper-case 0X', `0X${CHECKSUMMED.slice(2)}`],
    ['a non-hex character', `0x${'g'.repeat(40)}`],
    ['words', 'my wallet'],
    ['nothing', ''],
    ['a number', 42],
    ['null', null],
  ])('refuses %s, naming the field', (_case, value) => {
    expect(refusal(() => checkAddress(value, 'Smart Contract Address'))).toEqual(
      badRequest('Smart Contract Address must be a 0x address of 40 hexadecimal characters.'),
    );
  });
});

describe('checkMinimumAmount', () => {
  it.each([
    [0, '0'],
    ['0', '0'],
    [0.00001, '0.00001'],
    [1e-5, '0.00001'],
    ['0.00001', '0.00001'],
    [12.34567, '12.34567'],
    [' 1.5 ', '1.5'],
    [100, '100'],
    ['100', '100'],
    ['100.00000', '100.00000'],
    [99.99999, '99.99999'],
  ])('takes %j as %s', (value, text) => {
    expect(checkMinimumAmount(value)).toBe(text);
  });

  it.each([
    -1,
    '-1',
    -0.00001,
    100.00001,
    '100.00001',
    101,
    '101',
    1000,
    'abc',
    '',
    '   ',
    '0.000001',
    0.000001,
    1e-11,
    0.00001000001,
    '1e-5',
    '1,5',
    Number.NaN,
    Number.POSITIVE_INFINITY,
    null,
    true,
  ])('refuses %j', (value) => {
    expect(refusal(() => checkMinimumAmount(value))).toEqual(
      badRequest('Minimum Forwarding Amount must be a number from 0 to 100 with at most 5 decimals.'),
    );
  });
});

describe('checkName', () => {
  it('trims the name and refuses a blank one', () => {
    expect(checkName('  Treasury ')).toBe('Treasury');
    for (const value of ['', ' \t\n', undefined, null, 7]) {
      expect(refusal(() => checkName(value))).toEqual(badRequest('Name is required.'));
    }
  });

  it('refuses a name with a line break, a tab or another control character (wallet names go into e-mails)', () => {
    for (const value of ['Gas\r\nSECURITY NOTICE', 'Gas\twallet', 'Gas\u2028wallet']) {
      expect(refusal(() => checkName(value))).toEqual(badRequest(M.nameInvalid));
    }
  });
});

describe('requiredFields', () => {
  const request = (body: unknown) => ({ body }) as FastifyRequest;
  const rules = requiredFields((b) => [
    [b.network, M.networkRequired],
    [b.name, M.nameRequired],
  ]);

  it('answers the first missing field in the order of the rules', async () => {
    expect(await asyncRefusal(() => rules(request({})))).toEqual(badRequest('Network is required.'));
    expect(await asyncRefusal(() => rules(request({ name: 'x' })))).toEqual(badRequest('Network is required.'));
    expect(await asyncRefusal(() => rules(request({ network: 'N' })))).toEqual(badRequest('Name is required.'));
  });

  it('counts blank text and null as missing, and zero or false as given', async () => {
    expect(await asyncRefusal(() => rules(request({ network: ' \t', name: 'x' })))).toEqual(
      badRequest('Network is required.'),
    );
    expect(await asyncRefusal(() => rules(request({ network: 'N', name: null })))).toEqual(
      badRequest('Name is required.'),
    );
    expect(await asyncRefusal(() => rules(request({ network: 0, name: false })))).toBeUndefined();
  });

  it('reads a missing body, a list or a text as an empty body', async () => {
    for (const body of [undefined, null, ['ETHEREUM_SEPOLIA', 'x'], 'ETHEREUM_SEPOLIA']) {
      expect(await asyncRefusal(() => rules(request(body)))).toEqual(badRequest('Network is required.'));
    }
  });
});

describe('forwardingWalletRules (spec B §5 Create wallet)', () => {
  const first = async (body: Record<string, unknown>) =>
    (await asyncRefusal(() => requiredFields(forwardingWalletRules)({ body } as FastifyRequest)))?.message;
  const native = {
    network: 'ETHEREUM_SEPOLIA',
    token: 'ETH',
    minimumForwardingAmount: '0.00001',
    destinationPublicAddress: CHECKSUMMED,
  };
  const erc20 = { ...native, token: 'ERC20', smartContractAddress: CHECKSUMMED, gasFeeFundingWalletId: 'g' };
  const without = (body: Record<string, unknown>, field: string) =>
    Object.fromEntries(Object.entries(body).filter(([name]) => name !== field));

  it('asks nothing more of a complete native or ERC20 wallet', async () => {
    expect(await first(native)).toBeUndefined();
    expect(await first(erc20)).toBeUndefined();
    expect(await first({ ...native, minimumForwardingAmount: 0 })).toBeUndefined();
  });

  it.each([
    ['network', 'Network is required.'],
    ['token', 'Token is required.'],
    ['minimumForwardingAmount', 'Minimum Forwarding Amount is required.'],
    ['destinationPublicAddress', 'Destination Public Address is required.'],
  ])('answers the message of a missing %s', async (field, message) => {
    expect(await first(without(native, field))).toBe(message);
    expect(await first({ ...native, [field]: '  ' })).toBe(message);
  });

  it('asks for the contract and the gas fee funding wallet only of an ERC20 wallet', async () => {
    expect(await first(without(erc20, 'smartContractAddress'))).toBe('Smart Contract Address is required.');
    expect(await first(without(erc20, 'gasFeeFundingWalletId'))).toBe('Gas Fee Funding Wallet ID is required.');
    expect(await first({ ...erc20, token: ' ERC20 ', gasFeeFundingWalletId: '' })).toBe(
      'Gas Fee Funding Wallet ID is required.',
    );
    expect(await first({ ...native, smartContractAddress: null, gasFeeFundingWalletId: null })).toBeUndefined();
  });

  it('asks for the webhook header and its value only when a webhook URL is given', async () => {
    const url = 'https://example.com/hook';
    expect(await first({ ...native, webhookSetting: { url } })).toBe('Webhook Header is required.');
    expect(await first({ ...native, webhookSetting: { url, header: 'X-Token', headerValue: ' ' } })).toBe(
      'Webhook Header Value is required.',
    );
    expect(await first({ ...native, webhookSetting: { url, header: 'X-Token', headerValue: 'v' } })).toBeUndefined();
    expect(await first({ ...native, webhookSetting: { url: '  ' } })).toBeUndefined();
    expect(await first({ ...native, webhookSetting: null })).toBeUndefined();
  });
});
