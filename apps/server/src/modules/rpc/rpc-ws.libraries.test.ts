import { rpcWebSocketUrl } from '@ebs/contract';
import { WebSocketProvider } from 'ethers';
import { createPublicClient, defineChain, http, parseAbi, toEventSelector, webSocket } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../testing/anvil.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { nodeCall } from './anvil-nodes.ts';

const NETWORK = 'ethereum/mainnet';
const chain = defineChain({
  id: 1,
  name: 'Ethereum Mainnet (local)',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});
/** A contract that logs `Ping()` on every call: PUSH32 topic, PUSH1 0, PUSH1 0, LOG1, STOP. */
const EMITTER = '0x00000000000000000000000000000000000e1117';
const ABI = parseAbi(['event Ping()']);
const EMITTER_CODE = `0x7f${toEventSelector('Ping()').slice(2)}60006000a100`;
/** Anvil's first development account (unlocked on a node a test starts). */
const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/**
 * Clients we did not write (viem's webSocket transport, ethers' WebSocketProvider) on the URL the
 * RPC page shows, unmodified; every answer compared with the node's own.
 */
describe('viem and ethers over the WebSocket endpoint', () => {
  let node: { url: string; stop(): Promise<void> };
  let server: TestServer;
  let closeDb: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    node = await startAnvil(1);
    await nodeCall(node.url, 'anvil_setCode', [EMITTER, EMITTER_CODE]);
    // Blocks on demand: a node that mines as transactions come may put two in one block.
    await nodeCall(node.url, 'evm_setAutomine', [false]);
    const opened = await pglite.open();
    closeDb = opened.close;
    server = await startServer(opened.db, {
      RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [node.url, node.url.replace(/^http/, 'ws')] }),
    });
    const holder = await accountWithKey(server.url, server.db);
    url = rpcWebSocketUrl(server.url, NETWORK, holder.keyId, holder.key);
  });

  afterAll(async () => {
    await server?.close();
    await closeDb?.();
    await node?.stop();
  });

  it('viem: getBlockNumber, watchBlocks and watchContractEvent', async () => {
    const client = createPublicClient({ chain, transport: webSocket(url) });
    const direct = createPublicClient({ chain, transport: http(node.url) });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(await direct.getBlockNumber({ cacheTime: 0 }));

    const blocks: bigint[] = [];
    const pings: string[] = [];
    const unwatchBlocks = client.watchBlocks({ onBlock: (block) => blocks.push(block.number) });
    const unwatchPings = client.watchContractEvent({
      address: EMITTER,
      abi: ABI,
      eventName: 'Ping',
      onLogs: (logs) => pings.push(...logs.map((l) => l.transactionHash)),
    });
    // Both subscriptions are made before the blocks come.
    await until(
      'two subscriptions at the node',
      async () => server.deps.rpc.subscriptions(NETWORK)?.upstreamSubscriptions === 2,
    );
    const start = await direct.getBlockNumber({ cacheTime: 0 });
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      sent.push(
        (await nodeCall(node.url, 'eth_sendTransaction', [
          { from: DEV_ACCOUNT, to: EMITTER, gas: '0x10000' },
        ])) as string,
      );
      await nodeCall(node.url, 'evm_mine');
    }
    await until('three blocks and three pings', async () => blocks.length >= 3 && pings.length >= 3);
    expect(blocks).toEqual([start + 1n, start + 2n, start + 3n]);
    expect(pings).toEqual(sent);
    unwatchBlocks();
    unwatchPings();
    await until('unwatched', async () => server.deps.rpc.subscriptions(NETWORK)?.upstreamSubscriptions === 0);
    // viem keeps its socket (and would reconnect after the server stops): closed as an app would at exit.
    (await client.transport.getRpcClient()).close();
  });

  it('ethers: getBlockNumber and block events', async () => {
    const provider = new WebSocketProvider(url);
    try {
      const direct = Number(await nodeCall(node.url, 'eth_blockNumber'));
      expect(await provider.getBlockNumber()).toBe(direct);
      const seen: number[] = [];
      await provider.on('block', (n: number) => seen.push(n));
      await until(
        'the subscription at the node',
        async () => server.deps.rpc.subscriptions(NETWORK)?.upstreamSubscriptions === 1,
      );
      await nodeCall(node.url, 'evm_mine');
      await nodeCall(node.url, 'evm_mine');
      await until('two blocks', async () => seen.length >= 2);
      expect(seen).toEqual([direct + 1, direct + 2]);
    } finally {
      await provider.destroy();
    }
  });
});
