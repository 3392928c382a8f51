import type { DestinationWallet, GasFeeFundingWallet, TokenForwardingWallet } from '@ebs/contract';
import { bytesToHex } from 'viem';
import { HDKey, hdKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { Answer } from '../../testing/client.ts';
import type { TestServer } from '../../testing/server.ts';
import { forwardingAccount } from './forwarding.test-kit.ts';

/** Helpers shared by the token forwarding route tests. */

export const SEPOLIA_CHAIN_ID = 11155111;
export const SEPOLIA = 'ETHEREUM_SEPOLIA';
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000001';

export type Owner = Awaited<ReturnType<typeof forwardingAccount>>;

/** The upstream settings of a server whose Sepolia is the given local node. */
export const sepoliaOn = (rpcUrl: string) => ({ RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': [rpcUrl] }) });

export function expectRefused(answer: Answer, status: number, message: string) {
  expect({ status: answer.status, message: answer.body.message }).toEqual({ status, message });
}

export function expectOk<T>(answer: Answer<T>, message = 'Success'): T {
  expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 200, message });
  return answer.body.data;
}

/** Every token forwarding row of an account, as stored: a refused call must leave all of them as they were. */
export async function accountRows(server: TestServer, accountId: string) {
  const db = server.db;
  const [destinations, gasWallets, wallets, forwards] = await Promise.all([
    db.selectFrom('destination_wallets').selectAll().where('account_id', '=', accountId).orderBy('id').execute(),
    db.selectFrom('gas_fee_funding_wallets').selectAll().where('account_id', '=', accountId).orderBy('id').execute(),
    db.selectFrom('token_forwarding_wallets').selectAll().where('account_id', '=', accountId).orderBy('id').execute(),
    db
      .selectFrom('token_forwarding_transactions')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute(),
  ]);
  return { destinations, gasWallets, wallets, forwards };
}

/** Runs the calls and shows that the account's rows (their number and their content) did not change. */
export async function expectNothingChanged(server: TestServer, accountId: string, calls: () => Promise<void>) {
  const before = await accountRows(server, accountId);
  await calls();
  const after = await accountRows(server, accountId);
  expect(Object.values(after).map((rows) => rows.length)).toEqual(Object.values(before).map((rows) => rows.length));
  expect(after).toEqual(before);
}

const KEY_FIELD = /private|key_?index|seed|mnemonic|secret/i;

const fieldNames = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(fieldNames)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([name, inner]) => [name, ...fieldNames(inner)])
      : [];

/**
 * A wallet answer names no key material, and the private key the server derives for the wallet
 * (its seed at the stored key index) appears nowhere in it, while its public address is that key's.
 */
export async function expectNoKeyMaterial(server: TestServer, answer: unknown) {
  expect(fieldNames(answer).filter((name) => KEY_FIELD.test(name))).toEqual([]);
  const text = JSON.stringify(answer).toLowerCase();
  const root = HDKey.fromMasterSeed(server.deps.secrets.walletSeed);
  const rows = await Promise.all([
    server.db.selectFrom('gas_fee_funding_wallets').select(['address', 'key_index']).execute(),
    server.db.selectFrom('token_forwarding_wallets').select(['address', 'key_index']).execute(),
  ]);
  const shown = rows.flat().filter((row) => text.includes(row.address.toLowerCase()));
  expect(shown.length).toBeGreaterThan(0);
  for (const row of shown) {
    const account = hdKeyToAccount(root, { addressIndex: row.key_index });
    expect(account.address).toBe(row.address);
    const privateKey = account.getHdKey().privateKey;
    if (!privateKey) throw new Error('no private key derived');
    expect(text).not.toContain(bytesToHex(privateKey).slice(2));
  }
  expect(text).not.toContain(server.deps.secrets.walletSeed.toString('hex'));
}

/** An account's API with the usual create calls, each checked to succeed. */
export function walletMaker(owner: Owner) {
  const create = async <T>(path: string, body: unknown) =>
    expectOk(await owner.api.post<T>(path, body), 'Wallet has been created.');
  return {
    destination: (address: string, name = 'Treasury', network = SEPOLIA) =>
      create<DestinationWallet>('/destination', { network, name, destinationPublicAddress: address }),
    gasWallet: (name = 'Gas', network = SEPOLIA) =>
      create<GasFeeFundingWallet>('/gas-fee-funding-wallet', { network, name }),
    nativeWallet: (destination: string, extra: Record<string, unknown> = {}) =>
      create<TokenForwardingWallet>('/wallet', {
        network: SEPOLIA,
        token: 'ETH',
        minimumForwardingAmount: '0.001',
        destinationPublicAddress: destination,
        ...extra,
      }),
    erc20Wallet: (destination: string, contract: string, gasWalletId: string, extra: Record<string, unknown> = {}) =>
      create<TokenForwardingWallet>('/wallet', {
        network: SEPOLIA,
        token: 'ERC20',
        smartContractAddress: contract,
        minimumForwardingAmount: 1,
        destinationPublicAddress: destination,
        gasFeeFundingWalletId: gasWalletId,
        ...extra,
      }),
  };
}

/** A signed-up owner of a TOKEN_FORWARDING account on the server, with the create helpers. */
export async function owner(server: TestServer, feature = true) {
  const account = await forwardingAccount(server.url, server.db, feature);
  return { ...account, make: walletMaker(account) };
}
