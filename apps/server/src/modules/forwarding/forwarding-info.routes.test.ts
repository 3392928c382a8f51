import type {
  ForwardingTransactionList,
  SmartContractInfo,
  SupportedNetworkAndToken,
  TestWebhookResult,
  TokenForwardingWallet,
  TokenForwardingWalletList,
} from '@ebs/contract';
import { Webhook } from 'standardwebhooks';
import { getAddress, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unseal } from '../../secrets.ts';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { deployTestToken } from '../../testing/contracts/test-token.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { randomAddress } from './forwarding.test-kit.ts';
import {
  expectNoKeyMaterial,
  expectOk,
  owner,
  SEPOLIA,
  SEPOLIA_CHAIN_ID,
  sepoliaOn,
} from './forwarding-api.test-kit.ts';
import { openForward } from './forwards.store.ts';
import { startReceiver } from './webhooks/webhooks.test-kit.ts';

const anvil = await startAnvil(SEPOLIA_CHAIN_ID);
afterAll(() => anvil.stop());
let token: `0x${string}`;
beforeAll(async () => {
  token = getAddress(
    await deployTestToken(anvil.url, DEV_PRIVATE_KEY, {
      name: 'Lookup Token',
      symbol: 'LKT',
      decimals: 8,
      supply: parseUnits('1000', 8),
    }),
  );
});

describe.each(testDatabases)('token forwarding lookups, webhooks and transactions on $name', (database) => {
  const server = serverFor(database, { ...sepoliaOn(anvil.url), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });

  it('lists the eight EVM networks, each with its native token and ERC20, and no Bitcoin network', async () => {
    const o = await owner(server());
    const supported = expectOk(await o.api.get<SupportedNetworkAndToken>('/supported-network-and-token'));
    expect(supported).toEqual({
      ETHEREUM_SEPOLIA: ['ETH', 'ERC20'],
      ETHEREUM_MAINNET: ['ETH', 'ERC20'],
      BSC_MAINNET: ['BNB', 'ERC20'],
      BSC_TESTNET: ['BNB', 'ERC20'],
      POLYGON_MAINNET: ['POL', 'ERC20'],
      POLYGON_AMOY: ['POL', 'ERC20'],
      AURORA_MAINNET: ['ETH', 'ERC20'],
      AURORA_TESTNET: ['ETH', 'ERC20'],
    });
  });

  it("answers an ERC-20 contract's address, name, symbol and decimals", async () => {
    const o = await owner(server());
    const answer = await o.api.get<SmartContractInfo>(
      `/smart-contract-info?network=${SEPOLIA}&smartContractAddress=${token.toLowerCase()}`,
    );
    expect(expectOk(answer)).toEqual({ address: token, name: 'Lookup Token', symbol: 'LKT', decimals: 8 });
  });

  it('answers the webhook header value of a wallet in webhookSetting but stores it sealed', async () => {
    const o = await owner(server());
    const receiver = await startReceiver([{ status: 200 }]);
    try {
      const answer = await o.api.post<TokenForwardingWallet>('/wallet', {
        network: SEPOLIA,
        token: 'ETH',
        minimumForwardingAmount: '0.5',
        destinationPublicAddress: randomAddress(),
        webhookSetting: {
          url: ` ${receiver.url} `,
          header: ' X-Shop-Token ',
          headerValue: ' shop-secret-123 ',
          secret: 'ignored',
        },
      });
      const wallet = expectOk(answer, 'Wallet has been created.');
      expect(wallet.webhookSetting).toEqual({
        url: receiver.url,
        header: 'X-Shop-Token',
        headerValue: 'shop-secret-123',
      });
      await expectNoKeyMaterial(server(), answer.body);

      const listed = expectOk(await o.api.get<TokenForwardingWalletList>('/wallet')).tokenForwardingWallets;
      expect(listed.map((w) => w.webhookSetting)).toEqual([wallet.webhookSetting]);

      const row = await server()
        .db.selectFrom('token_forwarding_wallets')
        .select(['webhook_url', 'webhook_header', 'webhook_header_value'])
        .where('id', '=', wallet.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ webhook_url: receiver.url, webhook_header: 'X-Shop-Token' });
      expect(row.webhook_header_value).not.toContain('shop-secret-123');
      expect(unseal(server().deps.secrets.dataKey, row.webhook_header_value ?? '')).toBe('shop-secret-123');
      // The test call only checks the target: it sent nothing.
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("tests a webhook: a signed sample with the custom header reaches the URL, and the answer tells the target's status and body", async () => {
    const o = await owner(server());
    const receiver = await startReceiver([{ status: 202, body: 'accepted by the shop' }]);
    try {
      const answer = await o.api.post<TestWebhookResult>('/testWebhook', {
        url: receiver.url,
        header: 'X-Shop-Token',
        headerValue: 'shop-123',
      });
      expect(expectOk(answer)).toEqual({ url: receiver.url, status: 202, body: 'accepted by the shop' });

      expect(receiver.received).toHaveLength(1);
      const [hook] = receiver.received;
      expect(hook?.headers['x-shop-token']).toBe('shop-123');
      const signed = {
        'webhook-id': String(hook?.headers['webhook-id']),
        'webhook-timestamp': String(hook?.headers['webhook-timestamp']),
        'webhook-signature': String(hook?.headers['webhook-signature']),
      };
      expect(signed['webhook-id']).toMatch(/^msg_/);
      expect(signed['webhook-timestamp']).toMatch(/^\d+$/);
      const secret = (await o.client.get<{ secret: string }>('/api/v1.0/account/signing-secret', o.headers)).body.data
        .secret;
      const payload = new Webhook(secret).verify(hook?.body ?? '', signed) as { type: string };
      expect(payload.type).toBe('token_forwarding.test');
    } finally {
      await receiver.close();
    }
  });

  it('lists no transactions at first, then filters them by wallet id and by address', async () => {
    const o = await owner(server());
    const stranger = await owner(server());
    const empty = await o.api.get<ForwardingTransactionList>('/transaction');
    expect(expectOk(empty)).toEqual({ tokenForwardingTransactions: [], totalCount: 0 });

    const [toA, toB] = [randomAddress(), randomAddress()];
    const a = await o.make.nativeWallet(toA);
    const b = await o.make.nativeWallet(toB);
    const open = (wallet: TokenForwardingWallet, to: string, amount: string) =>
      openForward(server().db, {
        accountId: o.accountId,
        walletId: wallet.id,
        network: SEPOLIA,
        token: 'ETH',
        smartContractAddress: null,
        fromAddress: wallet.publicAddress,
        toAddress: getAddress(to),
        amount,
        originalBalance: '0.5',
      });
    const forwardA = await open(a, toA, '0.49');
    const forwardB = await open(b, toB, '0.48');

    const all = expectOk(await o.api.get<ForwardingTransactionList>('/transaction'));
    expect(all.totalCount).toBe(2);
    expect(all.tokenForwardingTransactions.map((t) => t.id).sort()).toEqual([forwardA, forwardB].sort());

    const byWallet = expectOk(
      await o.api.get<ForwardingTransactionList>(`/transaction?tokenForwardingWalletId=${a.id}`),
    );
    expect(byWallet).toEqual({
      totalCount: 1,
      tokenForwardingTransactions: [
        {
          id: forwardA,
          tokenForwardingWalletId: a.id,
          network: SEPOLIA,
          token: 'ETH',
          smartContractAddress: null,
          status: 'PENDING',
          amount: '0.49',
          fromAddress: a.publicAddress,
          toAddress: getAddress(toA),
          metadata: {
            originalBalance: '0.5',
            confirmations: 0,
            transactionHash: null,
            gasFundingTransactionHash: null,
            transactionReceipt: null,
          },
          webhookStatus: 'NONE',
          webhookAttempt: 0,
          webhookLog: [],
          webhookId: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ],
    });

    const idsFor = async (query: string) =>
      expectOk(await o.api.get<ForwardingTransactionList>(`/transaction?${query}`)).tokenForwardingTransactions.map(
        (t) => t.id,
      );
    // An address matches either end, in any letter case.
    expect(await idsFor(`address=${toB.toLowerCase()}`)).toEqual([forwardB]);
    expect(await idsFor(`address=${b.publicAddress.toLowerCase()}`)).toEqual([forwardB]);
    expect(await idsFor(`address=${a.publicAddress}`)).toEqual([forwardA]);
    expect(await idsFor(`address=${randomAddress()}`)).toEqual([]);
    expect(await idsFor('tokenForwardingWalletId=not-a-wallet')).toEqual([]);

    // Another account sees none of them, even by their wallet id.
    const theirs = expectOk(
      await stranger.api.get<ForwardingTransactionList>(`/transaction?tokenForwardingWalletId=${a.id}`),
    );
    expect(theirs).toEqual({ tokenForwardingTransactions: [], totalCount: 0 });
  });
});
