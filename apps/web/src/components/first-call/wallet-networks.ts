import type { RpcNetwork } from '@ebs/contract';

/** The native currency of a network's chain, as a wallet asks for it; Metabit publishes none. */
const NATIVE_CURRENCY: Partial<Record<RpcNetwork['path'], { name: string; symbol: string }>> = {
  'ethereum/mainnet': { name: 'Ether', symbol: 'ETH' },
  'ethereum/sepolia': { name: 'Sepolia Ether', symbol: 'ETH' },
  'bsc/mainnet': { name: 'BNB', symbol: 'BNB' },
  'bsc/testnet': { name: 'Test BNB', symbol: 'tBNB' },
  'polygon/mainnet': { name: 'POL', symbol: 'POL' },
  'polygon/amoy': { name: 'POL', symbol: 'POL' },
  'aurora/mainnet': { name: 'Ether', symbol: 'ETH' },
  'aurora/testnet': { name: 'Ether', symbol: 'ETH' },
};

/** EIP-3085 `wallet_addEthereumChain` parameters of a network, or undefined where a wallet cannot take it. */
export function addChainParameters(network: RpcNetwork, urlWithKey: string) {
  const currency = NATIVE_CURRENCY[network.path];
  if (!currency) return undefined;
  return {
    chainId: `0x${network.chainId.toString(16)}`,
    chainName: network.name,
    rpcUrls: [urlWithKey],
    nativeCurrency: { ...currency, decimals: 18 },
  };
}

/** The EIP-1193 provider a wallet extension puts on the page, when there is one. */
export interface InjectedWallet {
  request: (args: { method: string; params?: unknown[] }) => Promise<unknown>;
}

export const injectedWallet = (): InjectedWallet | undefined =>
  (window as unknown as { ethereum?: InjectedWallet }).ethereum;
