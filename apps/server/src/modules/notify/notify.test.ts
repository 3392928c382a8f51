import type { NotifyDeliveryList, NotifyPayload, NotifyWebhook } from '@ebs/contract';
import { Webhook } from 'standardwebhooks';
import { type Address, parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { installLogEmitter } from '../../testing/contracts/log-emitter.ts';
import { deployTestToken } from '../../testing/contracts/test-token.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { localSender, randomAddress } from '../forwarding/forwarding.test-kit.ts';
import { startReceiver } from '../forwarding/webhooks/webhooks.test-kit.ts';
import { TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from './block-activity.ts';
import { deliveredTo as deliveredToKit, notifyAccount, notifyServerEnv } from './notify.test-kit.ts';

const SEPOLIA = 11155111;
const database = testDatabases[testDatabases.length - 1] ?? testDatabases[0];
const anvil = await startAnvil(SEPOLIA);
afterAll(() => anvil.stop());

describe(`address-activity webhooks on a local node (${database?.name})`, () => {
  if (!database) return;
  const server = serverFor(database, notifyServerEnv(anvil.url));
  const sender = localSender(anvil.url, SEPOLIA, DEV_PRIVATE_KEY);
  const from = sender.client.account.address.toLowerCase();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let token: Address;
  let emitter: Awaited<ReturnType<typeof installLogEmitter>>;
  beforeAll(async () => {
    receiver = await startReceiver([{ status: 200 }]);
    token = await deployTestToken(anvil.url, DEV_PRIVATE_KEY, {
      name: 'Test Token',
      symbol: 'TST',
      decimals: 6,
      supply: parseUnits('1000000', 6),
    });
    emitter = await installLogEmitter(anvil.url);
  });
  afterAll(() => receiver.close());

  const tick = () => server().deps.notify.engine.tick();
  /** Turns the engine until the receiver holds `count` deliveries of the webhook. */
  const deliveredTo = (webhookId: string, count: number) => deliveredToKit(tick, receiver.received, webhookId, count);
  const blockOf = async (hash: `0x${string}`) => {
    const receipt = await sender.client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    const block = await sender.client.getBlock({ blockNumber: receipt.blockNumber });
    return { number: Number(block.number), hash: block.hash, timestamp: Number(block.timestamp) };
  };
  const emit = (data: `0x${string}`) => sender.client.sendTransaction({ to: emitter.tokenContract, data });

  async function webhook(addresses: string[], options: { confirmations?: number } = {}) {
    const owner = await notifyAccount(server().url);
    const created = await owner.api.post<NotifyWebhook>('', {
      name: 'Deposits',
      network: 'ETHEREUM_SEPOLIA',
      url: receiver.url,
      addresses,
      ...options,
    });
    expect(created.status, created.body.message).toBe(200);
    // The scanner starts at the network's head; later blocks are the webhook's.
    await tick();
    return { owner, id: created.body.data.id };
  }

  it('delivers native, ERC-20, ERC-721 and ERC-1155 transfers of watched addresses once each, signed, with the exact payload', async () => {
    const watched = randomAddress();
    const other = randomAddress();
    const { owner, id } = await webhook([watched.toUpperCase().replace('0X', '0x'), other]);

    const native = await blockOf(
      await sender.client.sendTransaction({ to: watched as Address, value: parseEther('0.25') }),
    );
    await sender.sendEth(randomAddress(), '0.1'); // unwatched
    const erc20 = await blockOf(
      await sender.client.writeContract({
        address: token,
        abi: [
          {
            type: 'function',
            name: 'transfer',
            stateMutability: 'nonpayable',
            inputs: [{ type: 'address' }, { type: 'uint256' }],
            outputs: [{ type: 'bool' }],
          },
        ],
        functionName: 'transfer',
        args: [other as Address, parseUnits('1.5', 6)],
      }),
    );
    const erc721 = await blockOf(await emit(emitter.erc721Transfer(TRANSFER_TOPIC, watched, randomAddress(), 7n)));
    const single = await blockOf(
      await emit(emitter.erc1155Single(TRANSFER_SINGLE_TOPIC, from, randomAddress(), other, 5n, 3n)),
    );
    const batch = await blockOf(
      await emit(emitter.erc1155Batch(TRANSFER_BATCH_TOPIC, from, watched, randomAddress(), [1n, 2n], [10n, 20n])),
    );
    await emit(emitter.erc721Transfer(TRANSFER_TOPIC, randomAddress(), randomAddress(), 8n)); // unwatched

    const payloads = await deliveredTo(id, 5);
    const secret = await owner.secret();
    for (const request of receiver.received.filter((r) => JSON.parse(r.body).webhookId === id)) {
      expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toBeTruthy();
    }
    const base = (block: { number: number; hash: string; timestamp: number }) => ({
      type: 'ADDRESS_ACTIVITY' as const,
      webhookId: id,
      network: 'ETHEREUM_SEPOLIA',
      block,
      confirmed: false,
      removed: false,
      replay: false,
    });
    const tx = expect.stringMatching(/^0x[0-9a-f]{64}$/);
    const emitterAddress = emitter.tokenContract.toLowerCase();
    const expected: Array<Omit<NotifyPayload, 'eventId'>> = [
      {
        ...base(native),
        activity: [
          {
            category: 'NATIVE',
            fromAddress: from,
            toAddress: watched,
            value: '0.25',
            rawValue: '0x3782dace9d90000',
            asset: 'ETH',
            contractAddress: null,
            tokenId: null,
            txHash: tx,
            logIndex: null,
          },
        ],
      },
      {
        ...base(erc20),
        activity: [
          {
            category: 'ERC20',
            fromAddress: from,
            toAddress: other,
            value: '1.5',
            rawValue: '0x16e360',
            asset: 'TST',
            contractAddress: token.toLowerCase(),
            tokenId: null,
            txHash: tx,
            logIndex: 0,
          },
        ],
      },
      {
        ...base(erc721),
        activity: [
          {
            category: 'ERC721',
            fromAddress: watched,
            toAddress: expect.any(String),
            value: '1',
            rawValue: '0x1',
            asset: null,
            contractAddress: emitterAddress,
            tokenId: '7',
            txHash: tx,
            logIndex: 0,
          },
        ],
      },
      {
        ...base(single),
        activity: [
          {
            category: 'ERC1155',
            fromAddress: expect.any(String),
            toAddress: other,
            value: '3',
            rawValue: '0x3',
            asset: null,
            contractAddress: emitterAddress,
            tokenId: '5',
            txHash: tx,
            logIndex: 0,
          },
        ],
      },
      {
        ...base(batch),
        activity: [
          {
            category: 'ERC1155',
            fromAddress: watched,
            toAddress: expect.any(String),
            value: '10',
            rawValue: '0xa',
            asset: null,
            contractAddress: emitterAddress,
            tokenId: '1',
            txHash: tx,
            logIndex: 0,
          },
          {
            category: 'ERC1155',
            fromAddress: watched,
            toAddress: expect.any(String),
            value: '20',
            rawValue: '0x14',
            asset: null,
            contractAddress: emitterAddress,
            tokenId: '2',
            txHash: tx,
            logIndex: 0,
          },
        ],
      },
    ];
    expect(payloads.map(({ eventId: _, ...rest }) => rest)).toEqual(expected);
    expect(new Set(payloads.map((p) => p.eventId)).size).toBe(5);

    // Nothing more comes: a marker sent last arrives, and nothing else with it.
    await sender.sendEth(watched, '0.01');
    const after = await deliveredTo(id, 6);
    expect(after).toHaveLength(6);
    const log = await owner.api.get<NotifyDeliveryList>(`/${id}/deliveries?limit=10`);
    expect(log.body.data.total).toBe(6);
    expect(log.body.data.deliveries.every((d) => d.status === 'DELIVERED' && d.attempts.length === 1)).toBe(true);
    expect(log.body.data.deliveries[0]?.attempts[0]?.statusCode).toBe(200);
  });

  it('an address added between two blocks misses nothing of the second', async () => {
    const first = randomAddress();
    const added = randomAddress();
    const { owner, id } = await webhook([first]);
    await sender.sendEth(first, '0.01');
    await deliveredTo(id, 1);
    const change = await owner.api.patch<{ added: number; addressCount: number }>(`/${id}/addresses`, {
      add: [added, first],
    });
    expect(change.body.data).toEqual({ added: 1, removed: 0, addressCount: 2 });
    const next = await blockOf(
      await sender.client.sendTransaction({ to: added as Address, value: parseEther('0.02') }),
    );
    const [, second] = await deliveredTo(id, 2);
    expect(second?.block).toEqual(next);
    expect(second?.activity.map((a) => a.toAddress)).toEqual([added]);
  });

  it('replays a block range: exactly its events again, marked replay, with their event ids', async () => {
    const watched = randomAddress();
    const { owner, id } = await webhook([watched]);
    const first = await blockOf(
      await sender.client.sendTransaction({ to: watched as Address, value: parseEther('0.03') }),
    );
    await sender.sendEth(randomAddress(), '0.01');
    const last = await blockOf(
      await sender.client.sendTransaction({ to: watched as Address, value: parseEther('0.04') }),
    );
    await sender.sendEth(watched, '0.05'); // after the range
    const live = await deliveredTo(id, 3);

    const tooLong = await owner.api.post(`/${id}/replay`, { fromBlock: 0, toBlock: 10_000 });
    expect([tooLong.status, tooLong.body.message]).toEqual([
      400,
      'A replay covers fromBlock to toBlock, at most 10,000 blocks.',
    ]);
    const ahead = await owner.api.post(`/${id}/replay`, { fromBlock: first.number, toBlock: last.number + 1000 });
    expect(ahead.status).toBe(400);
    expect(ahead.body.message).toMatch(/^The network's latest block is \d+; replay blocks up to it\.$/);

    const replay = await owner.api.post<{ status: string }>(`/${id}/replay`, {
      fromBlock: first.number,
      toBlock: last.number,
    });
    expect([replay.status, replay.body.message, replay.body.data.status]).toEqual([
      200,
      'Replay has started.',
      'RUNNING',
    ]);
    const all = await deliveredTo(id, 5);
    const replayed = all.slice(3);
    expect(replayed.map((p) => p.block)).toEqual([first, last]);
    expect(replayed).toEqual(live.slice(0, 2).map((p) => ({ ...p, replay: true })));
    // The range holds nothing more: a marker sent now is the next delivery.
    await sender.sendEth(watched, '0.06');
    expect((await deliveredTo(id, 6)).at(-1)?.replay).toBe(false);
  });
});
