import { NETWORKS } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { explorerLink } from './explorer-links';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const HASH = '0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b';

describe('explorerLink', () => {
  it.each([
    ['ETHEREUM_MAINNET', 'https://etherscan.io'],
    ['ETHEREUM_SEPOLIA', 'https://sepolia.etherscan.io'],
    ['BSC_MAINNET', 'https://bscscan.com'],
    ['BSC_TESTNET', 'https://testnet.bscscan.com'],
    ['POLYGON_MAINNET', 'https://polygonscan.com'],
    ['POLYGON_AMOY', 'https://amoy.polygonscan.com'],
    ['AURORA_MAINNET', 'https://explorer.aurora.dev'],
    ['AURORA_TESTNET', 'https://explorer.testnet.aurora.dev'],
  ])('links %s addresses and transactions to %s', (network, explorer) => {
    expect(explorerLink(network, 'address', ADDRESS)).toBe(`${explorer}/address/${ADDRESS}`);
    expect(explorerLink(network, 'transaction', HASH)).toBe(`${explorer}/tx/${HASH}`);
  });

  it.each(['BITCOIN_MAINNET', 'BITCOIN_TESTNET'])('has no link for %s', (network) => {
    expect(explorerLink(network, 'address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBeUndefined();
    expect(explorerLink(network, 'transaction', HASH)).toBeUndefined();
  });

  it('has no link for a network it does not know, nor for an object property name', () => {
    expect(explorerLink('METABIT_MAINNET', 'address', ADDRESS)).toBeUndefined();
    expect(explorerLink('constructor', 'address', ADDRESS)).toBeUndefined();
    expect(explorerLink('', 'transaction', HASH)).toBeUndefined();
  });

  it('covers every network identifier: all but Bitcoin have an explorer', () => {
    const linked = NETWORKS.filter((network) => explorerLink(network, 'address', ADDRESS));
    expect(linked).toEqual(NETWORKS.filter((network) => !network.startsWith('BITCOIN_')));
  });

  it('escapes a value that is not a plain hex string, so it cannot change the path', () => {
    expect(explorerLink('ETHEREUM_MAINNET', 'address', '../tx/0x1?a=b')).toBe(
      'https://etherscan.io/address/..%2Ftx%2F0x1%3Fa%3Db',
    );
  });
});
