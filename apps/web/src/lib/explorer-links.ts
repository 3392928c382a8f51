import type { Network } from '@ebs/contract';

/** What a value names on its network: a wallet or contract address, or a transaction hash. */
export type ExplorerLinkKind = 'address' | 'transaction';

/** spec B §2: the networks with a block explorer; Bitcoin has none. */
const EXPLORERS: Partial<Record<Network, string>> = {
  ETHEREUM_MAINNET: 'https://etherscan.io',
  ETHEREUM_SEPOLIA: 'https://sepolia.etherscan.io',
  BSC_MAINNET: 'https://bscscan.com',
  BSC_TESTNET: 'https://testnet.bscscan.com',
  POLYGON_MAINNET: 'https://polygonscan.com',
  POLYGON_AMOY: 'https://amoy.polygonscan.com',
  AURORA_MAINNET: 'https://explorer.aurora.dev',
  AURORA_TESTNET: 'https://explorer.testnet.aurora.dev',
};

const PATHS: Record<ExplorerLinkKind, string> = { address: 'address', transaction: 'tx' };

/**
 * The explorer page of an address or transaction hash, or undefined when the network has no explorer.
 * Takes any string: networks arrive from the server, which may name ones this build does not know.
 */
export function explorerLink(network: string, kind: ExplorerLinkKind, value: string): string | undefined {
  const base = Object.hasOwn(EXPLORERS, network) ? EXPLORERS[network as Network] : undefined;
  return base ? `${base}/${PATHS[kind]}/${encodeURIComponent(value)}` : undefined;
}
