import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  AccountSummary,
  ForwardingTransactionList,
  GasFeeFundingWallet,
  ResourceUsageList,
  TokenForwardingTransaction,
  TokenForwardingWallet,
} from '@ebs/contract';
import { erc20Abi, parseUnits } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { Client } from '../../testing/client.ts';
import { deployTestToken } from '../../testing/contracts/test-token.ts';
import { crashTarget, preferredCrashTarget, sameSession } from '../../testing/crash-kit.ts';
import { until } from '../../testing/poll.ts';
import { reportFigures } from '../../testing/report.ts';
import { localSender, randomAddress } from './forwarding.test-kit.ts';

const SEPOLIA = 11155111;
const anvil = await startAnvil(SEPOLIA);
afterAll(() => anvil.stop());
const sender = localSender(anvil.url, SEPOLIA, DEV_PRIVATE_KEY);
const node = (method: string, params: unknown[] = []) => sender.client.request({ method, params } as never);
/** Whether the node holds a transaction (mined or waiting in its pool). */
const known = async (hash: string | null | undefined) =>
  Boolean(hash && (await node('eth_getTransactionByHash', [hash])));

/** A webhook target that keeps every request and, while holding, answers none (a request in flight). */
async function startTarget() {
  const received: IncomingHttpHeaders[] = [];
  const waiting: ServerResponse[] = [];
  let holding = false;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.headers);
      if (holding) waiting.push(res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    hold: (on: boolean) => {
      holding = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe(`an ERC-20 forward whose server is killed at each step (${preferredCrashTarget})`, () => {
  it('moves the tokens once, completes once with one fee, and records its webhook delivered once', {
    timeout: 120_000,
  }, async () => {
    const target = await crashTarget(preferredCrashTarget);
    const hook = await startTarget();
    const env = {
      RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': [anvil.url] }),
      FORWARDING_CONFIRMATIONS: JSON.stringify({ ETHEREUM_SEPOLIA: 1 }),
      FORWARDING_SCAN_SECONDS: '0.3',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    };
    try {
      const token = await deployTestToken(anvil.url, DEV_PRIVATE_KEY, {
        name: 'Crash Token',
        symbol: 'CRT',
        decimals: 18,
        supply: parseUnits('1000000', 18),
      });
      let server = await target.start(env);
      let client = new Client(server.url);
      await client.signUp();
      const accountId = (
        await client.post<AccountSummary>('/api/v1.0/account', { accountName: 'Forwarding' }, { 'ebs-account-id': '' })
      ).body.data.id;
      const headers = { 'ebs-account-id': accountId };
      const owner = {
        accountId,
        api: {
          get: <T>(path: string) => client.get<T>(`/api/v1.0/token-forwarding${path}`, headers),
          post: <T>(path: string, body: unknown) => client.post<T>(`/api/v1.0/token-forwarding${path}`, body, headers),
        },
      };
      await target.admin(server, ['feature', 'enable', 'TOKEN_FORWARDING', '--account', owner.accountId]);
      const destination = randomAddress();
      const gas = (
        await owner.api.post<GasFeeFundingWallet>('/gas-fee-funding-wallet', {
          network: 'ETHEREUM_SEPOLIA',
          name: 'Gas',
        })
      ).body.data;
      await sender.sendEth(gas.publicAddress, '1');
      const created = await owner.api.post<TokenForwardingWallet>('/wallet', {
        network: 'ETHEREUM_SEPOLIA',
        token: 'ERC20',
        smartContractAddress: token,
        minimumForwardingAmount: '1',
        destinationPublicAddress: destination,
        gasFeeFundingWalletId: gas.id,
        webhookSetting: { url: hook.url, header: 'X-Shop-Token', headerValue: 'shop-1' },
      });
      expect([created.status, created.body.message]).toEqual([200, 'Wallet has been created.']);
      const wallet = created.body.data;

      // From here the node mines only when the test says: sent transactions wait in its pool.
      await node('evm_setAutomine', [false]);
      const amount = parseUnits('250', 18);
      await sender.client.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [wallet.publicAddress as `0x${string}`, amount],
      });
      await node('evm_mine');

      const moveTo = (url: string) => {
        client = sameSession(client, url);
      };
      const forward = async () => {
        const list = await owner.api.get<ForwardingTransactionList>(
          `/transaction?tokenForwardingWalletId=${wallet.id}`,
        );
        return list.body.data.tokenForwardingTransactions;
      };
      const at = (check: (f: TokenForwardingTransaction) => Promise<boolean> | boolean, what: string) =>
        until(
          what,
          async () => {
            const rows = await forward();
            return rows.length === 1 && rows[0] !== undefined && (await check(rows[0]));
          },
          30_000,
        );

      // Kill 1: the gas funding transfer is in the node's pool, the token transfer not signed.
      await at((f) => f.status === 'FUNDING_GAS' && known(f.metadata.gasFundingTransactionHash), 'gas funding sent');
      await server.crash();
      server = await target.start(env);
      moveTo(server.url);
      await node('evm_mine');

      // Kill 2: the token transfer is in the node's pool, not mined.
      await at(
        async (f) => f.status === 'CONFIRMING' && (await known(f.metadata.transactionHash)),
        'token transfer sent',
      );
      await server.crash();

      // Kill 3: the completed forward's webhook has reached the target, which has not answered.
      hook.hold(true);
      server = await target.start(env);
      moveTo(server.url);
      await node('evm_mine');
      await until('the webhook at the target', async () => hook.received.length === 1, 30_000);
      await server.crash();

      hook.hold(false);
      server = await target.start(env);
      moveTo(server.url);
      const [done] = await at((f) => f.webhookStatus === 'DELIVERED', 'the webhook delivered').then(forward);

      expect(done).toMatchObject({ status: 'COMPLETED', amount: '250', webhookAttempt: 1 });
      expect(done?.webhookLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200 })]);
      // At least once, with one id: the target saw the message killed in flight and its redelivery.
      expect(hook.received.map((h) => h['webhook-id'])).toEqual([done?.webhookId, done?.webhookId]);
      expect(await sender.tokenBalance(token, destination)).toBe(amount);
      expect(await sender.tokenBalance(token, wallet.publicAddress)).toBe(0n);
      // The gas wallet paid one funding transfer; the forwarding wallet sent one transfer.
      expect(await sender.client.getTransactionCount({ address: gas.publicAddress as `0x${string}` })).toBe(1);
      expect(await sender.client.getTransactionCount({ address: wallet.publicAddress as `0x${string}` })).toBe(1);
      const usage = await client.get<ResourceUsageList>('/api/v1.0/usage/api/billing?limit=100', headers);
      expect(usage.body.data.accountResourceUsage.map((u) => [u.resourceName, u.usage])).toEqual([
        ['TOKEN_FORWARDING_ETHEREUM_SEPOLIA', 1],
      ]);
      expect(await server.stop()).toBe(0);
      reportFigures('crashes', {
        scenario: 'forward and webhook',
        database: preferredCrashTarget,
        kills: 3,
        forwards: 1,
        webhooks: 1,
        webhookRequests: hook.received.length,
        duplicates: 0,
        lost: 0,
      });
    } finally {
      await node('evm_setAutomine', [true]).catch(() => undefined);
      await hook.close();
      await target.drop();
    }
  });
});
