import type { AccountSummary } from '@ebs/contract';
import { type Address, createWalletClient, defineChain, erc20Abi, http, parseEther, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Db } from '../../db/database.ts';
import { Client } from '../../testing/client.ts';
import { until } from '../../testing/poll.ts';
import { setFeature } from '../accounts/accounts.test-kit.ts';

/** A signed-up owner of an account with the TOKEN_FORWARDING feature, and a client for its calls. */
export async function forwardingAccount(baseUrl: string, db: Db, feature = true) {
  const client = new Client(baseUrl);
  await client.signUp();
  const created = await client.post<AccountSummary>(
    '/api/v1.0/account',
    { accountName: 'Forwarding' },
    { 'ebs-account-id': '' },
  );
  const accountId = created.body.data.id;
  if (feature) await setFeature(db, accountId, 'TOKEN_FORWARDING', true);
  const headers = { 'ebs-account-id': accountId };
  const api = {
    get: <T>(path: string) => client.get<T>(`/api/v1.0/token-forwarding${path}`, headers),
    post: <T>(path: string, body?: unknown) => client.post<T>(`/api/v1.0/token-forwarding${path}`, body, headers),
    delete: <T>(path: string, body?: unknown) =>
      client.call<T>('DELETE', `/api/v1.0/token-forwarding${path}`, { body, headers }),
  };
  return { client, accountId, headers, api };
}

/** A funded sender on a local node: Anvil's development key. */
export function localSender(rpcUrl: string, chainId: number, privateKey: `0x${string}`) {
  const chain = defineChain({
    id: chainId,
    name: 'local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain,
    transport: http(rpcUrl),
  }).extend(publicActions);
  return {
    client,
    async sendEth(to: string, ether: string) {
      const hash = await client.sendTransaction({ to: to as Address, value: parseEther(ether) });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    },
    async sendToken(token: Address, to: string, amount: bigint) {
      const hash = await client.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to as Address, amount],
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    },
    /** Mines an empty block, so recent transactions gain a confirmation. */
    mine: () => client.request({ method: 'evm_mine' } as never),
    ethBalance: (address: string) => client.getBalance({ address: address as Address }),
    tokenBalance: (token: Address, address: string) =>
      client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] }),
  };
}

/** Polls until `check` answers something truthy, or fails after `ms`. */
export const eventually = <T>(check: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> =>
  until('condition met', check, ms, 200);

/** A fresh address nobody holds the key of: a destination to read balances at. */
export const randomAddress = () =>
  `0x${Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')}`;

// Seeds and reads for other modules' tests: the way into this module's tables from outside it.
export { openForward } from './forwards.store.ts';
