import type {
  DestinationWallet,
  GasFeeFundingWallet,
  GasFeeWalletList,
  TokenForwardingWallet,
  TokenForwardingWalletList,
} from '@ebs/contract';
import { getAddress, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { deployTestToken } from '../../testing/contracts/test-token.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { localSender, randomAddress } from './forwarding.test-kit.ts';
import {
  expectNoKeyMaterial,
  expectOk,
  owner,
  SEPOLIA,
  SEPOLIA_CHAIN_ID,
  sepoliaOn,
} from './forwarding-api.test-kit.ts';

const anvil = await startAnvil(SEPOLIA_CHAIN_ID);
afterAll(() => anvil.stop());
const sender = localSender(anvil.url, SEPOLIA_CHAIN_ID, DEV_PRIVATE_KEY);
let token: `0x${string}`;
beforeAll(async () => {
  token = getAddress(
    await deployTestToken(anvil.url, DEV_PRIVATE_KEY, {
      name: 'Route Test Token',
      symbol: 'RTT',
      decimals: 6,
      supply: parseUnits('1000000', 6),
    }),
  );
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const statusIn = (statuses: string[]) => `/wallet?statusIn=${encodeURIComponent(JSON.stringify(statuses))}`;

describe.each(testDatabases)('token forwarding wallets on $name', (database) => {
  const server = serverFor(database, { ...sepoliaOn(anvil.url), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });

  it('creates, lists, renames and deletes (by network and address) destination wallets', async () => {
    const o = await owner(server());
    const address = randomAddress();

    const created = expectOk(
      await o.api.post<DestinationWallet>('/destination', {
        network: SEPOLIA,
        name: '  Treasury ',
        destinationPublicAddress: address,
      }),
      'Wallet has been created.',
    );
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Treasury',
      network: SEPOLIA,
      destinationPublicAddress: getAddress(address),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const cold = await o.make.destination(randomAddress(), 'Cold storage', 'BSC_TESTNET');

    const listed = expectOk(await o.api.get<DestinationWallet[]>('/destination'));
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(expect.arrayContaining([created, cold]));

    const renamed = expectOk(
      await o.api.post<DestinationWallet>('/destination/name', {
        network: SEPOLIA,
        destinationPublicAddress: getAddress(address),
        name: 'Main treasury',
      }),
      'Wallet name has been updated.',
    );
    expect(renamed).toMatchObject({
      id: created.id,
      name: 'Main treasury',
      destinationPublicAddress: getAddress(address),
    });
    const afterRename = expectOk(await o.api.get<DestinationWallet[]>('/destination'));
    expect(afterRename.find((w) => w.id === created.id)?.name).toBe('Main treasury');

    const deleted = await o.api.delete('/destination', { network: SEPOLIA, destinationPublicAddress: address });
    expect(expectOk(deleted, 'Wallet has been deleted')).toEqual({});
    expect(expectOk(await o.api.get<DestinationWallet[]>('/destination'))).toEqual([cold]);
    const stored = await server()
      .db.selectFrom('destination_wallets')
      .select('id')
      .where('account_id', '=', o.accountId)
      .execute();
    expect(stored).toEqual([{ id: cold.id }]);
  });

  it('creates gas fee funding wallets with an address of their own, a token and a zero balance, and lists them', async () => {
    const o = await owner(server());

    const answer = await o.api.post<GasFeeFundingWallet>('/gas-fee-funding-wallet', {
      network: SEPOLIA,
      name: ' Gas ',
    });
    const gas = expectOk(answer, 'Wallet has been created.');
    expect(gas).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Gas',
      network: SEPOLIA,
      publicAddress: expect.stringMatching(ADDRESS),
      token: 'ETH',
      balance: '0',
      updatedAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(getAddress(gas.publicAddress)).toBe(gas.publicAddress);
    await expectNoKeyMaterial(server(), answer.body);

    const bsc = await o.make.gasWallet('BNB gas', 'BSC_TESTNET');
    expect(bsc).toMatchObject({ network: 'BSC_TESTNET', token: 'BNB', balance: '0' });
    expect(bsc.publicAddress).not.toBe(gas.publicAddress);

    const list = await o.api.get<GasFeeWalletList>('/gas-fee-funding-wallet');
    const { gasFeeFundingWallets } = expectOk(list);
    expect(gasFeeFundingWallets).toHaveLength(2);
    expect(gasFeeFundingWallets).toEqual(expect.arrayContaining([gas, bsc]));
    await expectNoKeyMaterial(server(), list.body);
  });

  it('renames a gas fee funding wallet, refreshes its balance from the chain, and deletes an empty unused one', async () => {
    const o = await owner(server());
    const gas = await o.make.gasWallet();
    const spare = await o.make.gasWallet('Spare');

    const renamed = await o.api.post<GasFeeFundingWallet>('/gas-fee-funding-wallet/name', {
      id: gas.id,
      name: ' Sepolia gas ',
    });
    expect(expectOk(renamed, 'Wallet name has been updated.')).toEqual({ ...gas, name: 'Sepolia gas' });
    await expectNoKeyMaterial(server(), renamed.body);

    await sender.sendEth(gas.publicAddress, '0.25');
    const refreshed = await o.api.post<GasFeeFundingWallet>('/gas-fee-funding-wallet/balance', { id: gas.id });
    const balance = expectOk(refreshed, 'Balance has been refreshed.');
    expect(balance).toMatchObject({ id: gas.id, name: 'Sepolia gas', balance: '0.25', token: 'ETH' });
    expect(Date.parse(balance.updatedAt)).toBeGreaterThanOrEqual(Date.parse(gas.updatedAt));
    await expectNoKeyMaterial(server(), refreshed.body);
    const listed = expectOk(await o.api.get<GasFeeWalletList>('/gas-fee-funding-wallet')).gasFeeFundingWallets;
    expect(listed.find((w) => w.id === gas.id)?.balance).toBe('0.25');

    const deleted = await o.api.delete(`/gas-fee-funding-wallet/${spare.id}`);
    expect(expectOk(deleted, 'Wallet has been deleted')).toEqual({});
    const after = expectOk(await o.api.get<GasFeeWalletList>('/gas-fee-funding-wallet')).gasFeeFundingWallets;
    expect(after.map((w) => w.id)).toEqual([gas.id]);
    const row = await server()
      .db.selectFrom('gas_fee_funding_wallets')
      .select('deleted_at')
      .where('id', '=', spare.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeInstanceOf(Date);
  });

  it('creates native and ERC20 token forwarding wallets, the ERC20 one with its contract and gas fee funding wallet', async () => {
    const o = await owner(server());
    const destination = randomAddress();

    const nativeAnswer = await o.api.post<TokenForwardingWallet>('/wallet', {
      network: SEPOLIA,
      token: 'ETH',
      minimumForwardingAmount: 0.00001,
      destinationPublicAddress: destination,
    });
    const native = expectOk(nativeAnswer, 'Wallet has been created.');
    expect(native).toEqual({
      id: expect.stringMatching(UUID),
      network: SEPOLIA,
      token: 'ETH',
      smartContractAddress: null,
      publicAddress: expect.stringMatching(ADDRESS),
      status: 'ENABLED',
      statusReason: null,
      minimumForwardingAmount: '0.00001',
      destinationPublicAddress: getAddress(destination),
      gasFeeFundingWalletId: null,
      webhookSetting: null,
      balance: null,
      balanceLastCheckedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await expectNoKeyMaterial(server(), nativeAnswer.body);

    const gas = await o.make.gasWallet();
    const erc20Answer = await o.api.post<TokenForwardingWallet>('/wallet', {
      network: SEPOLIA,
      token: 'ERC20',
      smartContractAddress: token.toLowerCase(),
      minimumForwardingAmount: '2.5',
      destinationPublicAddress: destination,
      gasFeeFundingWalletId: gas.id,
    });
    const erc20 = expectOk(erc20Answer, 'Wallet has been created.');
    expect(erc20).toMatchObject({
      token: 'ERC20',
      smartContractAddress: token,
      gasFeeFundingWalletId: gas.id,
      minimumForwardingAmount: '2.5',
      status: 'ENABLED',
    });
    await expectNoKeyMaterial(server(), erc20Answer.body);
    expect(new Set([native.publicAddress, erc20.publicAddress, gas.publicAddress]).size).toBe(3);
    // The token's own decimals (6 here) are kept to read its balances and amounts right.
    const row = await server()
      .db.selectFrom('token_forwarding_wallets')
      .select(['token_decimals', 'smart_contract_address', 'gas_fee_funding_wallet_id'])
      .where('id', '=', erc20.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ token_decimals: 6, smart_contract_address: token, gas_fee_funding_wallet_id: gas.id });

    const list = await o.api.get<TokenForwardingWalletList>(statusIn(['ENABLED', 'DISABLED']));
    expect(expectOk(list).tokenForwardingWallets).toEqual(expect.arrayContaining([native, erc20]));
    await expectNoKeyMaterial(server(), list.body);
  });

  it('disables a wallet keeping the reason, enables it again, and lists by status', async () => {
    const o = await owner(server());
    const destination = randomAddress();
    const kept = await o.make.nativeWallet(destination);
    const paused = await o.make.nativeWallet(destination);

    const disabled = await o.api.post<TokenForwardingWallet>('/wallet/status', {
      id: paused.id,
      newStatus: 'DISABLED',
      reason: '  audit in progress ',
    });
    expect(expectOk(disabled, 'Wallet has been disabled')).toMatchObject({
      id: paused.id,
      status: 'DISABLED',
      statusReason: 'audit in progress',
    });
    await expectNoKeyMaterial(server(), disabled.body);

    const both = expectOk(await o.api.get<TokenForwardingWalletList>(statusIn(['ENABLED', 'DISABLED'])));
    expect(both.tokenForwardingWallets.map((w) => w.id).sort()).toEqual([kept.id, paused.id].sort());
    const onlyDisabled = expectOk(await o.api.get<TokenForwardingWalletList>(statusIn(['DISABLED'])));
    expect(onlyDisabled.tokenForwardingWallets).toEqual([
      expect.objectContaining({ id: paused.id, status: 'DISABLED', statusReason: 'audit in progress' }),
    ]);
    const onlyEnabled = expectOk(await o.api.get<TokenForwardingWalletList>(statusIn(['ENABLED'])));
    expect(onlyEnabled.tokenForwardingWallets.map((w) => w.id)).toEqual([kept.id]);
    const unfiltered = expectOk(await o.api.get<TokenForwardingWalletList>('/wallet'));
    expect(unfiltered.tokenForwardingWallets).toHaveLength(2);

    const enabled = await o.api.post<TokenForwardingWallet>('/wallet/status', { id: paused.id, newStatus: 'ENABLED' });
    expect(expectOk(enabled, 'Wallet has been enabled')).toMatchObject({
      id: paused.id,
      status: 'ENABLED',
      statusReason: null,
    });
    expect(expectOk(await o.api.get<TokenForwardingWalletList>(statusIn(['DISABLED']))).tokenForwardingWallets).toEqual(
      [],
    );
  });

  it('deletes empty forwarding wallets, and then the gas fee funding wallet they no longer use', async () => {
    const o = await owner(server());
    const destination = randomAddress();
    const gas = await o.make.gasWallet();
    const native = await o.make.nativeWallet(destination);
    const erc20 = await o.make.erc20Wallet(destination, token, gas.id);

    for (const wallet of [native, erc20]) {
      expect(expectOk(await o.api.delete(`/wallet/${wallet.id}`), 'Wallet has been deleted')).toEqual({});
    }
    expect(expectOk(await o.api.get<TokenForwardingWalletList>('/wallet')).tokenForwardingWallets).toEqual([]);
    // Kept as deleted rows: their forwards still name them.
    const rows = await server()
      .db.selectFrom('token_forwarding_wallets')
      .select('deleted_at')
      .where('account_id', '=', o.accountId)
      .execute();
    expect(rows).toEqual([{ deleted_at: expect.any(Date) }, { deleted_at: expect.any(Date) }]);

    expect(expectOk(await o.api.delete(`/gas-fee-funding-wallet/${gas.id}`), 'Wallet has been deleted')).toEqual({});
  });
});
