import type { NotifyDeliveryList, NotifyWebhook } from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { eventually, localSender, randomAddress } from '../forwarding/forwarding.test-kit.ts';
import { startReceiver } from '../forwarding/webhooks/webhooks.test-kit.ts';
import { notifyAccount } from './notify.test-kit.ts';
import { sendDue } from './notify-sender.ts';

const SEPOLIA = 11155111;
const database = testDatabases[0];
const anvil = await startAnvil(SEPOLIA);
afterAll(() => anvil.stop());

describe(`address-activity deliveries that fail (${database?.name})`, () => {
  if (!database) return;
  const server = serverFor(database, {
    RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': [anvil.url] }),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    NOTIFY_ENGINE: 'off',
  });
  const sender = localSender(anvil.url, SEPOLIA, DEV_PRIVATE_KEY);
  const receivers: Array<Awaited<ReturnType<typeof startReceiver>>> = [];
  afterAll(() => Promise.all(receivers.map((r) => r.close())));

  /** A webhook to a receiver answering `answers`, with one delivery queued and attempted once by the engine. */
  async function failingOnce(answers: Array<{ status: number }>) {
    const receiver = await startReceiver(answers);
    receivers.push(receiver);
    const owner = await notifyAccount(server().url);
    const watched = randomAddress();
    const created = await owner.api.post<NotifyWebhook>('', {
      name: 'Refused',
      network: 'ETHEREUM_SEPOLIA',
      url: receiver.url,
      addresses: [watched],
    });
    const id = created.body.data.id;
    await server().deps.notify.engine.tick();
    await sender.sendEth(watched, '0.01');
    await eventually(async () => {
      await server().deps.notify.engine.tick();
      return receiver.received.length >= 1;
    });
    return { receiver, owner, id };
  }

  /** One delivery run as if `hours` had passed: every wait of the schedule is over by then. */
  const runAt = (hours: number) => {
    const { deps } = server();
    return sendDue({
      db: deps.db,
      dataKey: deps.secrets.dataKey,
      mailer: deps.mailer,
      productName: 'Test',
      config: deps.config,
      owner: 'test-sender',
      now: () => new Date(Date.now() + hours * 3600_000),
    });
  };

  it('a delivery refused three times and then accepted is sent again with the same webhook-id, and billed once', async () => {
    const { receiver, owner, id } = await failingOnce([
      { status: 500 },
      { status: 503 },
      { status: 429 },
      { status: 200 },
    ]);
    for (const hours of [1, 2, 3]) await runAt(hours);
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const log = await owner.api.get<NotifyDeliveryList>(`/${id}/deliveries`);
    const [delivery] = log.body.data.deliveries;
    expect(delivery?.status).toBe('DELIVERED');
    expect(delivery?.attempts.map((a) => a.statusCode)).toEqual([500, 503, 429, 200]);
    expect(delivery?.messageId).toBe(receiver.received[0]?.headers['webhook-id']);
    const webhook = await owner.api.get<NotifyWebhook>(`/${id}`);
    expect(webhook.body.data.failingSince).toBeNull();
    const usage = await server()
      .db.selectFrom('account_resource_usage')
      .select(['usage', 'compute_units'])
      .where('account_id', '=', owner.accountId)
      .where('resource_name', '=', 'NOTIFY_ETHEREUM_SEPOLIA')
      .execute();
    expect(usage.map((u) => [Number(u.usage), u.compute_units])).toEqual([[1, null]]);
  });

  it('a webhook that fails for 24 hours is disabled and its owner told; enabled again, it sends what it held', async () => {
    const { receiver, owner, id } = await failingOnce([
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 200 },
    ]);
    await runAt(12);
    expect((await owner.api.get<NotifyWebhook>(`/${id}`)).body.data.status).toBe('ENABLED');
    await runAt(25);
    const disabled = (await owner.api.get<NotifyWebhook>(`/${id}`)).body.data;
    expect([disabled.status, disabled.disabledReason]).toEqual([
      'DISABLED',
      'Disabled: its deliveries failed for 24 hours.',
    ]);
    const mails = await server()
      .db.selectFrom('mail_outbox')
      .select(['to_email', 'subject'])
      .where('subject', 'like', '%webhook "Refused" has been disabled')
      .execute();
    expect(mails).toHaveLength(1);
    const log = (await owner.api.get<NotifyDeliveryList>(`/${id}/deliveries`)).body.data.deliveries;
    // The delivery is kept, first in line.
    expect(log[0]?.status).toBe('PENDING');
    expect(log[0]?.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500]);
    // Nothing is sent while it is disabled.
    const sent = receiver.received.length;
    await runAt(26);
    expect(receiver.received).toHaveLength(sent);
    const enabled = await owner.api.post<NotifyWebhook>(`/${id}/status`, { status: 'ENABLED' });
    expect([enabled.body.message, enabled.body.data.status, enabled.body.data.failingSince]).toEqual([
      'Webhook has been enabled.',
      'ENABLED',
      null,
    ]);
    // Enabled again, the held delivery goes out at once, under the same webhook-id.
    await runAt(0);
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const after = (await owner.api.get<NotifyDeliveryList>(`/${id}/deliveries`)).body.data.deliveries;
    expect(after[0]?.status).toBe('DELIVERED');
  });
});
