import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import {
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  keccak256,
  type PublicClient,
  parseEther,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startAnvil } from '../../testing/anvil.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, type KeyHolder } from '../../testing/keys.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

const chain: Chain = defineChain({
  id: 1,
  name: 'Ethereum Mainnet (local)',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

const TOPIC = keccak256(toHex('Ping()'));
/**
 * A contract whose code, on any call, logs Ping() with the word 42 and returns 42:
 * PUSH1 42 PUSH1 0 MSTORE PUSH32 topic PUSH1 32 PUSH1 0 LOG1 PUSH1 32 PUSH1 0 RETURN,
 * behind an init code that copies those 48 bytes and returns them.
 */
const RUNTIME = `602a6000527f${TOPIC.slice(2)}60206000a160206000f3`;
const DEPLOY = `0x6030600c60003960306000f3${RUNTIME}` as const;

/**
 * A client we did not write (viem) talks to the console's gateway as its transport; every answer
 * is compared with the same call sent straight to the node behind it. The gateway's upstreams
 * are configured with a dead node first, so every call also goes through failover.
 */
describe('viem through the RPC gateway', () => {
  let node: { url: string; stop(): Promise<void> };
  let server: TestServer;
  let closeDb: () => Promise<void>;
  let holder: KeyHolder;
  let viaGateway: PublicClient;
  let direct: PublicClient;

  beforeAll(async () => {
    node = await startAnvil(1);
    const dead = `http://127.0.0.1:${await freePort()}`;
    const opened = await pglite.open();
    closeDb = opened.close;
    server = await startServer(opened.db, {
      RPC_UPSTREAMS: JSON.stringify({ 'ethereum/mainnet': [dead, node.url] }),
      USAGE_FLUSH_SECONDS: '60',
    });
    holder = await accountWithKey(server.url, server.db);
    viaGateway = createPublicClient({ chain, transport: http(holder.url('ethereum/mainnet')) });
    direct = createPublicClient({ chain, transport: http(node.url) });
  });

  afterAll(async () => {
    await server?.close();
    await closeDb?.();
    await node?.stop();
  });

  it('reads the chain as the node does: chain id, block number, balance, call, logs, a batch', async () => {
    // A key of our own, funded on the node directly (the gateway refuses the node's test methods).
    const account = privateKeyToAccount(generatePrivateKey());
    await direct.request({
      method: 'anvil_setBalance',
      params: [account.address, `0x${parseEther('10').toString(16)}`],
    } as never);
    const wallet = createWalletClient({ account, chain, transport: http(holder.url('ethereum/mainnet')) });

    // Sends and waits for transactions on the local chain through the gateway.
    const deployHash = await wallet.sendTransaction({ data: DEPLOY });
    const deployed = await viaGateway.waitForTransactionReceipt({ hash: deployHash });
    expect(deployed.status).toBe('success');
    const contract = deployed.contractAddress as `0x${string}`;
    const pingHash = await wallet.sendTransaction({ to: contract, value: parseEther('0') });
    const ping = await viaGateway.waitForTransactionReceipt({ hash: pingHash });
    expect(ping.logs).toHaveLength(1);

    expect(await viaGateway.getChainId()).toBe(1);
    expect(await viaGateway.getChainId()).toBe(await direct.getChainId());
    // viem caches the block number per client for its polling interval; these must ask the node.
    expect(await viaGateway.getBlockNumber({ cacheTime: 0 })).toBe(await direct.getBlockNumber({ cacheTime: 0 }));
    const balance = await viaGateway.getBalance({ address: account.address });
    expect(balance).toBe(await direct.getBalance({ address: account.address }));
    expect(balance).toBeLessThan(parseEther('10'));

    const call = await viaGateway.call({ to: contract, data: '0x' });
    expect(call.data).toBe(toHex(42, { size: 32 }));
    expect(call).toEqual(await direct.call({ to: contract, data: '0x' }));

    const logs = await viaGateway.getLogs({ address: contract, fromBlock: 0n });
    expect(logs.map((l) => [l.topics[0], l.data, l.transactionHash])).toEqual([
      [TOPIC, toHex(42, { size: 32 }), pingHash],
    ]);
    expect(logs).toEqual(await direct.getLogs({ address: contract, fromBlock: 0n }));

    // viem's batching sends one JSON-RPC batch for calls made together.
    const batched = createPublicClient({
      chain,
      transport: http(holder.url('ethereum/mainnet'), { batch: { wait: 10 } }),
    });
    const [id, block, code] = await Promise.all([
      batched.getChainId(),
      batched.getBlockNumber(),
      batched.getCode({ address: contract }),
    ]);
    expect([id, block, code]).toEqual([1, await direct.getBlockNumber({ cacheTime: 0 }), `0x${RUNTIME}`]);
  });

  it('counts what went through, survives a graceful restart, and the same key works after it', async () => {
    const before = Number(
      (await server.db.selectFrom('account_resource_usage').select('usage').executeTakeFirst())?.usage ?? 0,
    );
    expect(before).toBe(0);
    const counted = server.deps.rpc.meter.unflushed;
    expect(counted).toBeGreaterThan(10);
    // A graceful stop writes what is counted; a new server on the same database carries on.
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-restart-'));
    await server.app.close();
    const rows = await server.db
      .selectFrom('account_resource_usage')
      .select(['resource_name', sql<string>`usage::text`.as('usage')])
      .where('account_id', '=', holder.accountId)
      .execute();
    expect(rows).toEqual([{ resource_name: 'RPC_API_ETHEREUM_MAINNET', usage: String(counted) }]);
    const again = await startServer(server.db, {
      DATA_DIR: dataDir,
      RPC_UPSTREAMS: JSON.stringify({ 'ethereum/mainnet': [node.url] }),
    });
    try {
      const client = createPublicClient({
        chain,
        transport: http(holder.url('ethereum/mainnet').replace(server.url, again.url)),
      });
      expect(await client.getChainId()).toBe(1);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
    const total = await server.db
      .selectFrom('account_resource_usage')
      .select('usage')
      .where('account_id', '=', holder.accountId)
      .executeTakeFirstOrThrow();
    expect(Number(total.usage)).toBe(counted + 1);
  });
});
