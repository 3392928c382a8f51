import type { NotifyWebhook } from '@ebs/contract';
import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { localSender, randomAddress } from '../forwarding/forwarding.test-kit.ts';
import { startReceiver } from '../forwarding/webhooks/webhooks.test-kit.ts';
import { deliveredTo as deliveredToKit, notifyAccount, notifyServerEnv, payloadsFor } from './notify.test-kit.ts';

const SEPOLIA = 11155111;
const database = testDatabases[0];
const anvil = await startAnvil(SEPOLIA);
afterAll(() => anvil.stop());

describe(`address-activity webhooks through confirmations and reorgs (${database?.name})`, () => {
  if (!database) return;
  const server = serverFor(database, notifyServerEnv(anvil.url));
  const sender = localSender(anvil.url, SEPOLIA, DEV_PRIVATE_KEY);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver([{ status: 200 }]);
  });
  afterAll(() => receiver.close());

  const tick = () => server().deps.notify.engine.tick();
  const deliveredTo = (webhookId: string, count: number) => deliveredToKit(tick, receiver.received, webhookId, count);
  const send = async (to: string, ether: string) => {
    const hash = await sender.client.sendTransaction({ to: to as Address, value: parseEther(ether) });
    const receipt = await sender.client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    return { number: Number(receipt.blockNumber), hash: receipt.blockHash };
  };
  const mine = async (blocks: number) => {
    for (let i = 0; i < blocks; i++) await sender.mine();
  };

  async function webhook(addresses: string[], confirmations: number) {
    const owner = await notifyAccount(server().url);
    const created = await owner.api.post<NotifyWebhook>('', {
      name: 'Confirmed deposits',
      network: 'ETHEREUM_SEPOLIA',
      url: receiver.url,
      addresses,
      confirmations,
    });
    expect(created.status, created.body.message).toBe(200);
    await tick();
    return created.body.data.id;
  }

  it('tells of a block when seen and again once it is N blocks deep; with 0 confirmations, once', async () => {
    const watched = randomAddress();
    const deep = await webhook([watched], 2);
    const once = await webhook([watched], 0);
    const block = await send(watched, '0.1');
    const [seen] = await deliveredTo(deep, 1);
    expect([seen?.block.hash, seen?.confirmed, seen?.removed]).toEqual([block.hash, false, false]);
    await mine(1);
    await tick();
    expect(payloadsFor(receiver.received, deep)).toHaveLength(1);
    await mine(1);
    const [, confirmed] = await deliveredTo(deep, 2);
    expect(confirmed).toEqual({ ...seen, eventId: expect.any(String), confirmed: true });
    expect(confirmed?.eventId).not.toBe(seen?.eventId);
    // The same block for the webhook without confirmations: one delivery, unconfirmed.
    await send(watched, '0.2');
    const single = await deliveredTo(once, 2);
    expect(single.map((p) => [p.block.number, p.confirmed])).toEqual([
      [block.number, false],
      [block.number + 3, false],
    ]);
  });

  it('takes back the events of a block a reorg removed, and tells of the blocks that replaced it', async () => {
    const watched = randomAddress();
    const id = await webhook([watched], 3);
    const snapshot = await sender.client.request({ method: 'evm_snapshot' } as never);
    const removedBlock = await send(watched, '0.5');
    const [seen] = await deliveredTo(id, 1);
    expect(seen?.block.hash).toBe(removedBlock.hash);

    await sender.client.request({ method: 'evm_revert', params: [snapshot] } as never);
    const replacing = await send(watched, '0.7');
    expect(replacing.number).toBe(removedBlock.number);
    expect(replacing.hash).not.toBe(removedBlock.hash);

    const [, removed, fresh] = await deliveredTo(id, 3);
    expect(removed).toEqual({ ...seen, eventId: expect.any(String), removed: true });
    expect(fresh?.block.hash).toBe(replacing.hash);
    expect([fresh?.removed, fresh?.confirmed, fresh?.activity[0]?.value]).toEqual([false, false, '0.7']);

    // Only the block that stayed is confirmed.
    await mine(3);
    const all = await deliveredTo(id, 4);
    expect(all).toHaveLength(4);
    expect([all[3]?.block.hash, all[3]?.confirmed]).toEqual([replacing.hash, true]);
  });
});
