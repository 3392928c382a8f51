import type {
  DestinationWallet,
  ForwardingTransactionList,
  GasFeeFundingWallet,
  TokenForwardingWallet,
} from '@ebs/contract';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { formatEther, getAddress, parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { deployTestToken } from '../../testing/contracts/test-token.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { eventually, forwardingAccount, localSender, randomAddress } from './forwarding.test-kit.ts';
import { ForwardingEngine } from './forwarding-engine.ts';
import { WalletKeys } from './wallet-keys.ts';
import { startReceiver } from './webhooks/webhooks.test-kit.ts';

const SEPOLIA = 11155111;
// The database the engines share: PostgreSQL when the machine has one (several connections), else PGlite.
const database = testDatabases[testDatabases.length - 1] ?? testDatabases[0];
const anvil = await startAnvil(SEPOLIA);
afterAll(() => anvil.stop());

describe(`token forwarding end to end on a local node (${database?.name})`, () => {
  if (!database) return;
  const server = serverFor(database, {
    RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': [anvil.url] }),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // A forward waits for two blocks; the tests mine them, as a live network would.
    FORWARDING_CONFIRMATIONS: JSON.stringify({ ETHEREUM_SEPOLIA: 2 }),
  });
  const sender = localSender(anvil.url, SEPOLIA, DEV_PRIVATE_KEY);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let token: `0x${string}`;
  beforeAll(async () => {
    receiver = await startReceiver([{ status: 200, body: '{"ok":true}' }]);
    token = await deployTestToken(anvil.url, DEV_PRIVATE_KEY, {
      name: 'Test Token',
      symbol: 'TST',
      decimals: 18,
      supply: parseUnits('1000000', 18),
    });
  });
  afterAll(() => receiver.close());

  /** An engine like the server's, with its own lease owner (another process, or a restart). */
  const engine = (options: { leaseSeconds?: number; afterBroadcast?: (id: string) => void } = {}) => {
    const { deps } = server();
    return new ForwardingEngine({
      db: deps.db,
      chains: deps.forwarding.chains,
      keys: new WalletKeys(deps.secrets.walletSeed),
      mailer: deps.mailer,
      log: server().app.log,
      productName: 'Test',
      ...options,
    });
  };

  /** Turns the server's engine until the wallet's forwards are all closed and returns them. */
  async function forwardsOf(
    api: Awaited<ReturnType<typeof forwardingAccount>>['api'],
    walletId: string,
    count: number,
  ) {
    return eventually(async () => {
      await server().deps.forwarding.engine.tick();
      await sender.mine();
      const list = await api.get<ForwardingTransactionList>(`/transaction?tokenForwardingWalletId=${walletId}`);
      const rows = list.body.data.tokenForwardingTransactions;
      return rows.length === count && rows.every((t) => t.status === 'COMPLETED' || t.status === 'FAILED') && rows;
    });
  }

  async function setUp(minimum = '0.001') {
    const owner = await forwardingAccount(server().url, server().db);
    const destination = randomAddress();
    const created = await owner.api.post<DestinationWallet>('/destination', {
      network: 'ETHEREUM_SEPOLIA',
      name: 'Treasury',
      destinationPublicAddress: destination,
    });
    expect(created.body.message).toBe('Wallet has been created.');
    const gas = await owner.api.post<GasFeeFundingWallet>('/gas-fee-funding-wallet', {
      network: 'ETHEREUM_SEPOLIA',
      name: 'Gas',
    });
    await sender.sendEth(gas.body.data.publicAddress, '1');
    const webhookSetting = { url: receiver.url, header: 'X-Shop-Token', headerValue: 'shop-123' };
    const native = await owner.api.post<TokenForwardingWallet>('/wallet', {
      network: 'ETHEREUM_SEPOLIA',
      token: 'ETH',
      minimumForwardingAmount: minimum,
      destinationPublicAddress: destination,
      webhookSetting,
    });
    const erc20 = await owner.api.post<TokenForwardingWallet>('/wallet', {
      network: 'ETHEREUM_SEPOLIA',
      token: 'ERC20',
      smartContractAddress: token,
      minimumForwardingAmount: minimum,
      destinationPublicAddress: destination,
      gasFeeFundingWalletId: gas.body.data.id,
      webhookSetting,
    });
    expect(native.status).toBe(200);
    expect(erc20.status).toBe(200);
    return { ...owner, destination, gas: gas.body.data, native: native.body.data, erc20: erc20.body.data };
  }

  it('forwards native and ERC-20 deposits to the destination, bills a fee each and delivers signed webhooks', {
    timeout: 60_000,
  }, async () => {
    const s = await setUp();
    await sender.sendEth(s.native.publicAddress, '0.5');
    await sender.sendToken(token, s.erc20.publicAddress, parseUnits('1234.5', 18));

    const [nativeForward] = await forwardsOf(s.api, s.native.id, 1);
    const [tokenForward] = await forwardsOf(s.api, s.erc20.id, 1);
    expect(nativeForward?.status).toBe('COMPLETED');
    expect(tokenForward?.status).toBe('COMPLETED');
    // The whole deposit less the network fee reached the destination; the forwarding wallet is empty.
    expect(await sender.ethBalance(s.native.publicAddress)).toBe(0n);
    expect(formatEther(await sender.ethBalance(s.destination))).toBe(nativeForward?.amount);
    expect(await sender.tokenBalance(token, s.destination)).toBe(parseUnits('1234.5', 18));
    expect(await sender.tokenBalance(token, s.erc20.publicAddress)).toBe(0n);
    expect(tokenForward).toMatchObject({ amount: '1234.5', token: 'ERC20', smartContractAddress: getAddress(token) });
    expect(tokenForward?.toAddress.toLowerCase()).toBe(s.destination);
    expect(tokenForward?.fromAddress).toBe(s.erc20.publicAddress);
    for (const forward of [nativeForward, tokenForward]) {
      expect(forward?.metadata.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(forward?.metadata.transactionReceipt).toMatchObject({
        transactionHash: forward?.metadata.transactionHash,
        status: 'success',
        from: forward?.fromAddress.toLowerCase(),
        blockNumber: expect.stringMatching(/^\d+$/),
        gasUsed: expect.stringMatching(/^\d+$/),
        logs: expect.any(Array),
      });
      expect(forward?.metadata.confirmations).toBeGreaterThanOrEqual(1);
    }
    // The ERC-20 forward's gas came from the gas fee funding wallet.
    expect(tokenForward?.metadata.gasFundingTransactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await sender.ethBalance(s.gas.publicAddress)).toBeLessThan(parseEther('1'));

    // One fee per transfer, under the network's token forwarding resource.
    const usage = await server()
      .db.selectFrom('account_resource_usage')
      .select(['resource_name', sql<string>`usage::text`.as('usage'), 'api_key_id'])
      .where('account_id', '=', s.accountId)
      .execute();
    expect(usage).toEqual([{ resource_name: 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA', usage: '2', api_key_id: null }]);

    // Each webhook carries the wallet's header and a Standard Webhooks signature of the account's secret.
    const secret = (await s.client.get<{ secret: string }>('/api/v1.0/account/signing-secret', s.headers)).body.data
      .secret;
    const listed = await eventually(async () => {
      await server().deps.forwarding.deliverWebhooks();
      const list = await s.api.get<ForwardingTransactionList>('/transaction');
      const rows = list.body.data.tokenForwardingTransactions;
      return rows.every((t) => t.webhookStatus === 'DELIVERED') && rows;
    });
    expect(listed).toHaveLength(2);
    const hooks = receiver.received.filter((r) => listed.some((t) => t.webhookId === r.headers['webhook-id']));
    expect(hooks).toHaveLength(2);
    for (const hook of hooks) {
      expect(hook.headers['x-shop-token']).toBe('shop-123');
      const payload = new Webhook(secret).verify(hook.body, {
        'webhook-id': String(hook.headers['webhook-id']),
        'webhook-timestamp': String(hook.headers['webhook-timestamp']),
        'webhook-signature': String(hook.headers['webhook-signature']),
      }) as { type: string; data: { id: string; status: string; metadata: { transactionHash: string } } };
      expect(payload.type).toBe('token_forwarding.completed');
      const forward = listed.find((t) => t.id === payload.data.id);
      expect(payload.data.metadata.transactionHash).toBe(forward?.metadata.transactionHash);
    }
    for (const forward of listed) {
      expect(forward.webhookAttempt).toBe(1);
      expect(forward.webhookLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200 })]);
    }
  });

  it('leaves a deposit below the minimum where it is', { timeout: 60_000 }, async () => {
    const s = await setUp('0.01');
    await sender.sendEth(s.native.publicAddress, '0.005');
    await server().deps.forwarding.engine.tick();
    await server().deps.forwarding.engine.tick();
    const list = await s.api.get<ForwardingTransactionList>(`/transaction?tokenForwardingWalletId=${s.native.id}`);
    expect(list.body.data.tokenForwardingTransactions).toEqual([]);
    expect(await sender.ethBalance(s.native.publicAddress)).toBe(parseEther('0.005'));
    const wallets = await s.api.get<{ tokenForwardingWallets: TokenForwardingWallet[] }>('/wallet');
    const scanned = wallets.body.data.tokenForwardingWallets.find((w) => w.id === s.native.id);
    expect(scanned?.balance).toBe('0.005');
    expect(Date.now() - Date.parse(scanned?.balanceLastCheckedAt ?? '')).toBeLessThan(60_000);
  });

  it('holds a native deposit too small to pay its own fee until more arrives, without failing scan after scan', {
    timeout: 60_000,
  }, async () => {
    const s = await setUp('0.00001');
    await sender.sendEth(s.native.publicAddress, '0.00001');
    const path = `/transaction?tokenForwardingWalletId=${s.native.id}`;
    for (let turn = 0; turn < 3; turn++) await server().deps.forwarding.engine.tick();
    const waiting = (await s.api.get<ForwardingTransactionList>(path)).body.data.tokenForwardingTransactions;
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({
      status: 'PENDING',
      metadata: { error: 'The balance does not cover the network fee of the forward yet.' },
    });
    await sender.sendEth(s.native.publicAddress, '0.1');
    await server()
      .db.updateTable('token_forwarding_transactions')
      .set({ next_step_at: new Date() })
      .where('id', '=', waiting[0]?.id ?? '')
      .execute();
    const [done] = await forwardsOf(s.api, s.native.id, 1);
    expect(done?.status).toBe('COMPLETED');
    expect(await sender.ethBalance(s.native.publicAddress)).toBe(0n);
    expect(formatEther(await sender.ethBalance(s.destination))).toBe(done?.amount);
  });

  it('does not sweep a disabled wallet, and sweeps it once enabled again', { timeout: 60_000 }, async () => {
    const s = await setUp();
    const disabled = await s.api.post('/wallet/status', { id: s.erc20.id, newStatus: 'DISABLED', reason: 'audit' });
    expect(disabled.body.message).toBe('Wallet has been disabled');
    await sender.sendToken(token, s.erc20.publicAddress, parseUnits('5', 18));
    await server().deps.forwarding.engine.tick();
    expect(await sender.tokenBalance(token, s.erc20.publicAddress)).toBe(parseUnits('5', 18));
    const enabled = await s.api.post('/wallet/status', { id: s.erc20.id, newStatus: 'ENABLED' });
    expect(enabled.body.message).toBe('Wallet has been enabled');
    const [forward] = await forwardsOf(s.api, s.erc20.id, 1);
    expect(forward?.status).toBe('COMPLETED');
    expect(await sender.tokenBalance(token, s.destination)).toBe(parseUnits('5', 18));
  });

  it('waits while the gas fee funding wallet cannot pay, tells the owner once, and forwards once it is funded', {
    timeout: 60_000,
  }, async () => {
    const owner = await forwardingAccount(server().url, server().db);
    const destination = randomAddress();
    const gas = await owner.api.post<GasFeeFundingWallet>('/gas-fee-funding-wallet', {
      network: 'ETHEREUM_SEPOLIA',
      name: 'Empty gas',
    });
    const wallet = await owner.api.post<TokenForwardingWallet>('/wallet', {
      network: 'ETHEREUM_SEPOLIA',
      token: 'ERC20',
      smartContractAddress: token,
      minimumForwardingAmount: 1,
      destinationPublicAddress: destination,
      gasFeeFundingWalletId: gas.body.data.id,
    });
    await sender.sendToken(token, wallet.body.data.publicAddress, parseUnits('10', 18));
    const mails = async () => {
      const email = (await owner.client.get<{ email: string }>('/api/v1.0/user')).body.data.email;
      const response = await fetch(`${server().url}/dev/mailbox.json?to=${encodeURIComponent(email)}`);
      return ((await response.json()) as Array<{ subject: string; text: string }>).filter((m) =>
        m.subject.includes('gas fee funding wallet'),
      );
    };
    await server().deps.forwarding.engine.tick();
    await server().deps.forwarding.engine.tick();
    const [waiting] = (
      await owner.api.get<ForwardingTransactionList>(`/transaction?tokenForwardingWalletId=${wallet.body.data.id}`)
    ).body.data.tokenForwardingTransactions;
    expect(waiting?.status).toBe('PENDING');
    expect(waiting?.metadata.error).toMatch(/gas fee funding wallet holds 0/);
    const told = await mails();
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain(gas.body.data.publicAddress);
    expect(await sender.tokenBalance(token, wallet.body.data.publicAddress)).toBe(parseUnits('10', 18));

    await sender.sendEth(gas.body.data.publicAddress, '0.1');
    // The waiting forward is looked at again a minute later; an operator's run (or the test) moves it now.
    await server()
      .db.updateTable('token_forwarding_transactions')
      .set({ next_step_at: new Date() })
      .where('id', '=', waiting?.id ?? '')
      .execute();
    const [done] = await forwardsOf(owner.api, wallet.body.data.id, 1);
    expect(done?.status).toBe('COMPLETED');
    expect(await sender.tokenBalance(token, destination)).toBe(parseUnits('10', 18));
    expect(await mails()).toHaveLength(1);
  });

  it('resumes a forward whose engine died between sending it and recording that, without sending again', {
    timeout: 60_000,
  }, async () => {
    const s = await setUp();
    await sender.sendEth(s.native.publicAddress, '0.2');
    const crashing = engine({
      leaseSeconds: 1,
      afterBroadcast: () => {
        throw new Error('killed after sending');
      },
    });
    await crashing.tick();
    const [open] = (await s.api.get<ForwardingTransactionList>(`/transaction?tokenForwardingWalletId=${s.native.id}`))
      .body.data.tokenForwardingTransactions;
    expect(open?.status).toBe('SENDING');
    const sentHash = open?.metadata.transactionHash;
    expect(sentHash).toMatch(/^0x/);
    // A new engine (the restarted process) takes the forward over once the dead one's lease ran out.
    const restarted = engine({ leaseSeconds: 1 });
    const [done] = await eventually(async () => {
      await restarted.tick();
      await sender.mine();
      const rows = (await s.api.get<ForwardingTransactionList>(`/transaction?tokenForwardingWalletId=${s.native.id}`))
        .body.data.tokenForwardingTransactions;
      return rows[0]?.status === 'COMPLETED' && rows;
    });
    expect(done?.metadata.transactionHash).toBe(sentHash);
    expect(await sender.ethBalance(s.native.publicAddress)).toBe(0n);
    expect(formatEther(await sender.ethBalance(s.destination))).toBe(done?.amount);
    await restarted.stop();
  });

  it('forwards each deposit once when two engines work at the same time', { timeout: 60_000 }, async () => {
    const s = await setUp();
    const [a, b] = [engine(), engine()];
    await sender.sendEth(s.native.publicAddress, '0.3');
    await sender.sendToken(token, s.erc20.publicAddress, parseUnits('77', 18));
    const done = await eventually(async () => {
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      await sender.mine();
      const rows = (await s.api.get<ForwardingTransactionList>('/transaction')).body.data.tokenForwardingTransactions;
      return rows.length >= 2 && rows.every((t) => t.status === 'COMPLETED') && rows;
    });
    await Promise.all([a.tick(), b.tick()]);
    expect(done).toHaveLength(2);
    expect(
      (await s.api.get<ForwardingTransactionList>('/transaction')).body.data.tokenForwardingTransactions,
    ).toHaveLength(2);
    expect(await sender.tokenBalance(token, s.destination)).toBe(parseUnits('77', 18));
    const nativeForward = done.find((t) => t.tokenForwardingWalletId === s.native.id);
    expect(formatEther(await sender.ethBalance(s.destination))).toBe(nativeForward?.amount);
    await Promise.all([a.stop(), b.stop()]);
  });
});
