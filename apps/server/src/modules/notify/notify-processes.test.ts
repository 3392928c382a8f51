import type { NotifyWebhook } from '@ebs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { Client } from '../../testing/client.ts';
import { type Cluster, startCluster } from '../../testing/server-cluster.ts';
import { eventually, localSender, randomAddress } from '../forwarding/forwarding.test-kit.ts';
import { startReceiver } from '../forwarding/webhooks/webhooks.test-kit.ts';
import { payloadsFor } from './notify.test-kit.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const SEPOLIA = 11155111;

describe.skipIf(!ADMIN_URL)('address-activity webhooks on two server processes sharing one PostgreSQL', () => {
  let cluster: Cluster;
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    anvil = await startAnvil(SEPOLIA);
    receiver = await startReceiver([{ status: 200 }]);
    cluster = await startCluster({
      processes: 2,
      adminUrl: String(ADMIN_URL),
      env: {
        RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': [anvil.url] }),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        FORWARDING_ENGINE: 'off',
        NOTIFY_POLL_MS: '100',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await receiver?.close();
    await anvil?.stop();
  });

  it('delivers each event once, whichever process scans and sends', async () => {
    const owner = new Client(cluster.proxy.url, cluster.processes[0]?.url);
    await owner.signUp();
    const account = await owner.post<{ id: string }>('/api/v1.0/account', { accountName: 'Two processes' });
    const headers = { 'ebs-account-id': account.body.data.id };
    const watched = [randomAddress(), randomAddress()];
    const created = await owner.post<NotifyWebhook>(
      '/api/v1.0/notify/webhook',
      { name: 'Shared', network: 'ETHEREUM_SEPOLIA', url: receiver.url, addresses: watched },
      headers,
    );
    expect(created.status, created.body.message).toBe(200);
    const id = created.body.data.id;
    const sender = localSender(anvil.url, SEPOLIA, DEV_PRIVATE_KEY);
    // A first transfer, waited for: from then on a scanner is past the webhook's creation.
    await sender.sendEth(watched[0] ?? '', '0.01');
    await eventually(async () => payloadsFor(receiver.received, id).length >= 1);
    for (let i = 0; i < 8; i++) await sender.sendEth(watched[i % 2] ?? '', `0.0${i + 2}`);
    // A last marker: deliveries go out in block order, so once it is in, every earlier one is too.
    await sender.sendEth(watched[1] ?? '', '0.5');
    const got = await eventually(async () => {
      const payloads = payloadsFor(receiver.received, id);
      return payloads.some((p) => p.activity[0]?.value === '0.5') && payloads;
    }, 60_000);
    expect(got).toHaveLength(10);
    expect(new Set(got.map((p) => p.eventId)).size).toBe(10);
    const messageIds = receiver.received
      .filter((r) => JSON.parse(r.body).webhookId === id)
      .map((r) => r.headers['webhook-id']);
    expect(new Set(messageIds).size).toBe(10);
    const blocks = got.map((p) => p.block.number);
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b));
  });
});
