import { getAddress, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { deployTestToken } from '../../testing/contracts/test-token.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { setFeature } from '../accounts/accounts.test-kit.ts';
import { localSender, randomAddress } from './forwarding.test-kit.ts';
import {
  expectNothingChanged,
  expectOk,
  expectRefused,
  type Owner,
  owner,
  SEPOLIA,
  SEPOLIA_CHAIN_ID,
  sepoliaOn,
  UNKNOWN_ID,
} from './forwarding-api.test-kit.ts';
import { openForward } from './forwards.store.ts';
import { startReceiver } from './webhooks/webhooks.test-kit.ts';

const anvil = await startAnvil(SEPOLIA_CHAIN_ID);
afterAll(() => anvil.stop());
const sender = localSender(anvil.url, SEPOLIA_CHAIN_ID, DEV_PRIVATE_KEY);
let token: `0x${string}`;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver([{ status: 200, body: 'ok' }]);
  token = getAddress(
    await deployTestToken(anvil.url, DEV_PRIVATE_KEY, {
      name: 'Held Token',
      symbol: 'HLD',
      decimals: 6,
      supply: parseUnits('1000', 6),
    }),
  );
});
afterAll(() => receiver.close());

const NOT_FOUND = 'Wallet not found.';
const NO_DESTINATION = 'No destination wallet of this account has this address on this network.';

/** Every wallet call that names a wallet, aimed at the given ones; each must answer 404. */
async function expectAllNotFound(o: Owner, ids: { wallet: string; gas: string; destination: string }) {
  expectRefused(await o.api.delete(`/wallet/${ids.wallet}`), 404, NOT_FOUND);
  expectRefused(await o.api.post('/wallet/status', { id: ids.wallet, newStatus: 'DISABLED' }), 404, NOT_FOUND);
  expectRefused(await o.api.post('/wallet/status', { id: ids.wallet, newStatus: 'ENABLED' }), 404, NOT_FOUND);
  expectRefused(await o.api.delete(`/gas-fee-funding-wallet/${ids.gas}`), 404, NOT_FOUND);
  expectRefused(await o.api.post('/gas-fee-funding-wallet/name', { id: ids.gas, name: 'Mine' }), 404, NOT_FOUND);
  expectRefused(await o.api.post('/gas-fee-funding-wallet/balance', { id: ids.gas }), 404, NOT_FOUND);
  const destination = { network: SEPOLIA, destinationPublicAddress: ids.destination };
  expectRefused(await o.api.post('/destination/name', { ...destination, name: 'Mine' }), 404, NO_DESTINATION);
  expectRefused(await o.api.delete('/destination', destination), 404, NO_DESTINATION);
}

describe.each(testDatabases)('token forwarding refusals on $name', (database) => {
  const server = serverFor(database, { ...sepoliaOn(anvil.url), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  // A server as deployed: webhooks may not reach this host or a private network.
  const strict = serverFor(database, sepoliaOn(anvil.url));

  /** An owner with a destination, a gas fee funding wallet and a native and an ERC20 forwarding wallet. */
  async function seeded() {
    const o = await owner(server());
    const destination = await o.make.destination(randomAddress());
    const gas = await o.make.gasWallet();
    const native = await o.make.nativeWallet(destination.destinationPublicAddress);
    const erc20 = await o.make.erc20Wallet(destination.destinationPublicAddress, token, gas.id);
    return { ...o, destination, gas, native, erc20 };
  }

  it('refuses a second destination wallet with the same address on the same network (409)', async () => {
    const o = await seeded();
    const address = o.destination.destinationPublicAddress;
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const same of [address, address.toLowerCase()]) {
        expectRefused(
          await o.api.post('/destination', { network: SEPOLIA, name: 'Again', destinationPublicAddress: same }),
          409,
          'This account already has a destination wallet with this address on this network.',
        );
      }
    });
    await o.make.destination(address, 'On BSC', 'BSC_TESTNET');
  });

  it('refuses to forward to the zero address or to a wallet of this service, which would burn or loop the tokens', async () => {
    const o = await seeded();
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const destination of [
        '0x0000000000000000000000000000000000000000',
        o.native.publicAddress,
        o.gas.publicAddress.toLowerCase(),
      ]) {
        expectRefused(
          await o.api.post('/wallet', {
            network: SEPOLIA,
            token: 'ETH',
            minimumForwardingAmount: 0.1,
            destinationPublicAddress: destination,
          }),
          400,
          'Destination Public Address must be an address you control: not the zero address, nor a forwarding or gas fee funding wallet.',
        );
      }
    });
  });

  it('answers unknown, deleted and wrong-kind wallet ids as not found, and a malformed id as a bad request', async () => {
    const o = await seeded();
    await expectNothingChanged(server(), o.accountId, async () => {
      await expectAllNotFound(o, { wallet: UNKNOWN_ID, gas: UNKNOWN_ID, destination: randomAddress() });
      // A gas fee funding wallet is not a forwarding wallet, and the other way round.
      await expectAllNotFound(o, { wallet: o.gas.id, gas: o.native.id, destination: o.native.publicAddress });
      expectRefused(
        await o.api.delete('/destination', {
          network: 'BSC_TESTNET',
          destinationPublicAddress: o.destination.destinationPublicAddress,
        }),
        404,
        NO_DESTINATION,
      );
      expectRefused(await o.api.delete('/wallet/not-a-uuid'), 400, 'params.walletId must match format "uuid"');
      expectRefused(await o.api.delete('/gas-fee-funding-wallet/42'), 400, 'params.walletId must match format "uuid"');
      expectRefused(
        await o.api.post('/wallet/status', { id: 'x', newStatus: 'ENABLED' }),
        400,
        'body.id must match format "uuid"',
      );
    });

    expectOk(await o.api.delete(`/wallet/${o.native.id}`), 'Wallet has been deleted');
    expectRefused(await o.api.delete(`/wallet/${o.native.id}`), 404, NOT_FOUND);
    expectRefused(await o.api.post('/wallet/status', { id: o.native.id, newStatus: 'ENABLED' }), 404, NOT_FOUND);
  });

  it("reads another account's wallets as not found and changes nothing of them", async () => {
    const a = await seeded();
    const b = await seeded();
    await expectNothingChanged(server(), a.accountId, () =>
      expectNothingChanged(server(), b.accountId, async () => {
        await expectAllNotFound(b, {
          wallet: a.native.id,
          gas: a.gas.id,
          destination: a.destination.destinationPublicAddress,
        });
        expectRefused(await b.api.delete(`/wallet/${a.erc20.id}`), 404, NOT_FOUND);
        const listed = expectOk(await b.api.get<{ tokenForwardingWallets: Array<{ id: string }> }>('/wallet'));
        expect(listed.tokenForwardingWallets.map((w) => w.id).sort()).toEqual([b.native.id, b.erc20.id].sort());
      }),
    );
  });

  it('refuses a gas fee funding wallet of another account, of another network or that does not exist', async () => {
    const o = await seeded();
    const other = await seeded();
    const bscGas = await o.make.gasWallet('BSC gas', 'BSC_TESTNET');
    const notFound = 'Gas Fee Funding Wallet ID does not name a gas fee funding wallet of this account.';
    const erc20 = (gasFeeFundingWalletId: string) => ({
      network: SEPOLIA,
      token: 'ERC20',
      smartContractAddress: token,
      minimumForwardingAmount: 1,
      destinationPublicAddress: randomAddress(),
      gasFeeFundingWalletId,
    });
    await expectNothingChanged(server(), o.accountId, async () => {
      for (const id of [other.gas.id, UNKNOWN_ID, 'not-a-uuid', o.native.id]) {
        expectRefused(await o.api.post('/wallet', erc20(id)), 400, notFound);
      }
      expectRefused(
        await o.api.post('/wallet', { ...erc20(other.gas.id), token: 'ETH', smartContractAddress: null }),
        400,
        notFound,
      );
      expectRefused(
        await o.api.post('/wallet', erc20(bscGas.id)),
        400,
        'The gas fee funding wallet must be on ETHEREUM SEPOLIA, the network of the forwarding wallet.',
      );
    });
  });

  it('refuses to delete a forwarding wallet that holds funds or has a forward in progress (409)', async () => {
    const o = await seeded();
    await sender.sendEth(o.native.publicAddress, '0.5');
    await sender.sendToken(token, o.erc20.publicAddress, parseUnits('12.5', 6));
    const open = await o.make.nativeWallet(randomAddress());
    await openForward(server().db, {
      accountId: o.accountId,
      walletId: open.id,
      network: SEPOLIA,
      token: 'ETH',
      smartContractAddress: null,
      fromAddress: open.publicAddress,
      toAddress: open.destinationPublicAddress,
      amount: '0.1',
      originalBalance: '0.1',
    });
    await expectNothingChanged(server(), o.accountId, async () => {
      expectRefused(
        await o.api.delete(`/wallet/${o.native.id}`),
        409,
        'This wallet still holds 0.5 ETH. It can be deleted once it is empty.',
      );
      expectRefused(
        await o.api.delete(`/wallet/${o.erc20.id}`),
        409,
        `This wallet still holds 12.5 tokens of ${o.erc20.smartContractAddress}. It can be deleted once it is empty.`,
      );
      expectRefused(
        await o.api.delete(`/wallet/${open.id}`),
        409,
        'A forward from this wallet is in progress. Try again once it has completed.',
      );
    });
  });

  it('refuses to delete a gas fee funding wallet that forwarding wallets use or that holds funds (409)', async () => {
    const o = await seeded();
    const funded = await o.make.gasWallet('Funded');
    await sender.sendEth(funded.publicAddress, '0.1');
    await expectNothingChanged(server(), o.accountId, async () => {
      expectRefused(
        await o.api.delete(`/gas-fee-funding-wallet/${o.gas.id}`),
        409,
        'This gas fee funding wallet pays the gas of 1 token forwarding wallet. Delete it first.',
      );
      expectRefused(
        await o.api.delete(`/gas-fee-funding-wallet/${funded.id}`),
        409,
        'This wallet still holds 0.1 ETH. It can be deleted once it is empty.',
      );
    });
    await o.make.erc20Wallet(o.destination.destinationPublicAddress, token, o.gas.id);
    expectRefused(
      await o.api.delete(`/gas-fee-funding-wallet/${o.gas.id}`),
      409,
      'This gas fee funding wallet pays the gas of 2 token forwarding wallets. Delete them first.',
    );
  });

  it('answers 403 "Token forwarding is not enabled for this account." on every call without the feature', async () => {
    const o = await seeded();
    await setFeature(server().db, o.accountId, 'TOKEN_FORWARDING', false);
    const never = await owner(server(), false);
    const heard = receiver.received.length;
    const destination = { network: SEPOLIA, destinationPublicAddress: o.destination.destinationPublicAddress };
    const contract = new URLSearchParams({ network: SEPOLIA, smartContractAddress: token });
    for (const account of [o, never]) {
      const api = account.api;
      await expectNothingChanged(server(), account.accountId, async () => {
        for (const answer of [
          await api.get('/supported-network-and-token'),
          await api.get('/destination'),
          await api.post('/destination', { ...destination, name: 'T' }),
          await api.post('/destination/name', { ...destination, name: 'T' }),
          await api.delete('/destination', destination),
          await api.get('/gas-fee-funding-wallet'),
          await api.post('/gas-fee-funding-wallet', { network: SEPOLIA, name: 'Gas' }),
          await api.post('/gas-fee-funding-wallet/name', { id: o.gas.id, name: 'Gas' }),
          await api.post('/gas-fee-funding-wallet/balance', { id: o.gas.id }),
          await api.delete(`/gas-fee-funding-wallet/${o.gas.id}`),
          await api.get('/wallet?statusIn=%5B%22ENABLED%22%5D'),
          await api.post('/wallet', { ...destination, token: 'ETH', minimumForwardingAmount: 1 }),
          await api.post('/wallet/status', { id: o.native.id, newStatus: 'DISABLED' }),
          await api.delete(`/wallet/${o.native.id}`),
          await api.get('/transaction'),
          await api.get(`/smart-contract-info?${contract}`),
          await api.post('/testWebhook', { url: receiver.url, header: 'X-Token', headerValue: 'v' }),
          // The feature is checked before the input: an empty call gets the same answer.
          await api.post('/wallet', {}),
          await api.post('/gas-fee-funding-wallet', {}),
          await api.get('/smart-contract-info'),
        ]) {
          expectRefused(answer, 403, 'Token forwarding is not enabled for this account.');
        }
      });
    }
    expect(receiver.received).toHaveLength(heard);
  });

  it('refuses a webhook URL on this host or a private network when private targets are not allowed', async () => {
    const o = await owner(strict());
    const heard = receiver.received.length;
    const refused = 'Webhook URL must not point to a private, loopback or link-local address.';
    await expectNothingChanged(strict(), o.accountId, async () => {
      for (const url of [
        receiver.url,
        `http://localhost:${receiver.port}/hook`,
        `http://[::1]:${receiver.port}/hook`,
        'http://10.0.0.8/hook',
        'http://192.168.1.10/hook',
        'http://169.254.169.254/latest/meta-data',
      ]) {
        const webhookSetting = { url, header: 'X-Token', headerValue: 'v' };
        expectRefused(
          await o.api.post('/wallet', {
            network: SEPOLIA,
            token: 'ETH',
            minimumForwardingAmount: 1,
            destinationPublicAddress: randomAddress(),
            webhookSetting,
          }),
          400,
          refused,
        );
        expectRefused(await o.api.post('/testWebhook', webhookSetting), 400, refused);
      }
    });
    expect(receiver.received).toHaveLength(heard);
  });
});
