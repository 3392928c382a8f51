import {
  type Address,
  createWalletClient,
  defineChain,
  type Hash,
  http,
  isAddress,
  parseEther,
  publicActions,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/** Why the faucet does not send: said to the operator as it is. */
export class FaucetRefusal extends Error {}

/** Up to a trillion coins, with at most 18 decimals (wei). */
const AMOUNT = /^\d{1,12}(\.\d{1,18})?$/;

/** Room for the faucet's own gas on top of what it sends. */
const GAS_ROOM = parseEther('1');

export function checkFundRequest(address: string | undefined, amount: string | undefined): [Address, bigint] {
  if (!address || !isAddress(address, { strict: false })) throw new FaucetRefusal('--address must be an 0x address');
  const wei = amount && AMOUNT.test(amount) ? parseEther(amount) : 0n;
  if (wei <= 0n) throw new FaucetRefusal('--amount must be a number of coins above 0, e.g. 1.5');
  return [address as Address, wei];
}

/**
 * The operator's faucet for the embedded default's local nodes: customers cannot mint coins on
 * them (the gateway refuses the node's test methods), so test coins come from here. The faucet
 * holds a key of its own, made at start and never stored: it credits itself on the node, then
 * sends an ordinary signed transfer, so the coins arrive as they would on a public testnet.
 * One transfer at a time, so that its nonces follow each other.
 */
export class LocalFaucet {
  private readonly account = privateKeyToAccount(generatePrivateKey());
  private queue: Promise<unknown> = Promise.resolve();

  send(nodeUrl: string, chainId: number, to: Address, wei: bigint): Promise<{ hash: Hash; balance: bigint }> {
    const run = this.queue.then(() => this.transfer(nodeUrl, chainId, to, wei));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async transfer(nodeUrl: string, chainId: number, to: Address, wei: bigint) {
    const chain = defineChain({
      id: chainId,
      name: 'local',
      nativeCurrency: { name: 'Coin', symbol: 'COIN', decimals: 18 },
      rpcUrls: { default: { http: [nodeUrl] } },
    });
    const client = createWalletClient({ account: this.account, chain, transport: http(nodeUrl) }).extend(publicActions);
    await client.request({
      method: 'anvil_setBalance',
      params: [this.account.address, `0x${(wei + GAS_ROOM).toString(16)}`],
    } as never);
    const hash = await client.sendTransaction({ to, value: wei });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    if (receipt.status !== 'success') throw new FaucetRefusal(`the transfer ${hash} failed on the node`);
    return { hash, balance: await client.getBalance({ address: to }) };
  }
}
