import type { RpcNetwork } from '@ebs/contract';
import { Button, Tooltip } from 'antd';
import { toast } from '../../lib/toast';
import { FirstCallTexts as T } from './first-call-texts';
import { addChainParameters, injectedWallet } from './wallet-networks';

/**
 * Add to MetaMask (EIP-3085 `wallet_addEthereumChain`), shown only where a wallet is on the page and
 * the network's currency is known. The wallet keeps the URL with the key in it, as it must.
 */
export function AddToWallet({ network, urlWithKey }: { network: RpcNetwork; urlWithKey: string }) {
  const wallet = injectedWallet();
  const parameters = addChainParameters(network, urlWithKey);
  if (!wallet || !parameters) return null;

  const add = async () => {
    try {
      await wallet.request({ method: 'wallet_addEthereumChain', params: [parameters] });
      toast.success(T.addedToWallet(network.name));
    } catch (error) {
      // A refusal in the wallet (code 4001) is the user's choice, said as the wallet words it.
      toast.error(error);
    }
  };
  return (
    <Tooltip title={T.addToWalletHint}>
      <Button onClick={() => void add()}>{T.addToMetaMask}</Button>
    </Tooltip>
  );
}
