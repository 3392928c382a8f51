import type {
  NotifyAddressesResult,
  NotifyAddressPage,
  NotifyDeliveryList,
  NotifyWebhook,
  NotifyWebhookList,
} from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../testing/anvil.ts';
import type { Answer } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor, type TestServer } from '../../testing/server.ts';
import { randomAddress } from '../forwarding/forwarding.test-kit.ts';
import { notifyAccount } from './notify.test-kit.ts';

const anvil = await startAnvil(11155111);
afterAll(() => anvil.stop());

const HOOK = 'http://127.0.0.1:9/hook';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000001';

function expectAnswer(answer: Answer, status: number, message: string) {
  expect({ status: answer.status, message: answer.body.message }).toEqual({ status, message });
}

/** Every notify row of an account: a refused call leaves them all as they were. */
async function notifyRows(server: TestServer, accountId: string) {
  const { db } = server;
  const webhooks = await db
    .selectFrom('notify_webhooks')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  const ids = webhooks.map((w) => w.id);
  const addresses = ids.length
    ? await db.selectFrom('notify_addresses').selectAll().where('webhook_id', 'in', ids).orderBy('address').execute()
    : [];
  const replays = ids.length
    ? await db.selectFrom('notify_replays').selectAll().where('webhook_id', 'in', ids).execute()
    : [];
  return { webhooks, addresses, replays };
}

describe.each(testDatabases)('address-activity webhook calls on $name', (database) => {
  const server = serverFor(database, {
    RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': [anvil.url] }),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    NOTIFY_ENGINE: 'off',
  });
  const strict = serverFor(database, {
    RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': [anvil.url] }),
    NOTIFY_ENGINE: 'off',
  });
  const body = (addresses: string[], extra: Record<string, unknown> = {}) => ({
    name: 'Deposits',
    network: 'ETHEREUM_SEPOLIA',
    url: HOOK,
    addresses,
    ...extra,
  });

  it('creates, lists, pages and searches addresses, changes them idempotently, disables and deletes', async () => {
    const owner = await notifyAccount(server().url);
    const a = randomAddress();
    const b = randomAddress();
    const created = await owner.api.post<NotifyWebhook>('', body([a, b.toUpperCase().replace('0X', '0x'), a]));
    expectAnswer(created, 200, 'Webhook has been created.');
    const webhook = created.body.data;
    expect(webhook).toMatchObject({
      name: 'Deposits',
      network: 'ETHEREUM_SEPOLIA',
      url: HOOK,
      categories: ['NATIVE', 'ERC20', 'ERC721', 'ERC1155'],
      confirmations: 0,
      status: 'ENABLED',
      disabledReason: null,
      addressCount: 2,
      lastDelivery: null,
    });
    const list = await owner.api.get<NotifyWebhookList>();
    expect(list.body.data.webhooks.map((w) => [w.id, w.addressCount])).toEqual([[webhook.id, 2]]);

    const more = Array.from({ length: 5 }, randomAddress);
    const change = await owner.api.patch<NotifyAddressesResult>(`/${webhook.id}/addresses`, {
      add: [...more, a],
      remove: [b],
    });
    expectAnswer(change, 200, 'Addresses have been updated.');
    expect(change.body.data).toEqual({ added: 5, removed: 1, addressCount: 6 });
    const again = await owner.api.patch<NotifyAddressesResult>(`/${webhook.id}/addresses`, { add: more, remove: [b] });
    expect(again.body.data).toEqual({ added: 0, removed: 0, addressCount: 6 });

    const sorted = [a, ...more].sort();
    const first = await owner.api.get<NotifyAddressPage>(`/${webhook.id}/addresses?limit=4`);
    expect(first.body.data).toEqual({ addresses: sorted.slice(0, 4), nextCursor: sorted[3], total: 6 });
    const second = await owner.api.get<NotifyAddressPage>(`/${webhook.id}/addresses?limit=4&cursor=${sorted[3]}`);
    expect(second.body.data).toEqual({ addresses: sorted.slice(4), nextCursor: null, total: 6 });
    const found = await owner.api.get<NotifyAddressPage>(
      `/${webhook.id}/addresses?search=${a.slice(10, 30).toUpperCase()}`,
    );
    expect(found.body.data.addresses).toEqual([a]);

    const off = await owner.api.post<NotifyWebhook>(`/${webhook.id}/status`, { status: 'DISABLED' });
    expectAnswer(off, 200, 'Webhook has been disabled.');
    expect([off.body.data.status, off.body.data.disabledReason]).toEqual([
      'DISABLED',
      'Disabled by a member of the account.',
    ]);
    expectAnswer(await owner.api.delete(`/${webhook.id}`), 200, 'Webhook has been deleted.');
    expectAnswer(await owner.api.get(`/${webhook.id}`), 404, 'This webhook does not exist.');
    expect((await owner.api.get<NotifyWebhookList>()).body.data.webhooks).toEqual([]);
  });

  it('refuses bad input with the field at fault and changes nothing', async () => {
    const owner = await notifyAccount(server().url);
    const webhook = (await owner.api.post<NotifyWebhook>('', body([randomAddress()]))).body.data;
    const before = await notifyRows(server(), owner.accountId);
    const refusals: Array<[Promise<Answer>, number, string]> = [
      [owner.api.post('', body([randomAddress()], { name: '  ' })), 400, 'Webhook name is required.'],
      [
        owner.api.post('', body([randomAddress()], { network: 'BITCOIN_MAINNET' })),
        400,
        'BITCOIN_MAINNET is not a network webhooks can watch.',
      ],
      [owner.api.post('', body([randomAddress(), '0x12'])), 400, 'addresses[1] is not an address: 0x12'],
      [owner.api.post('', body([])), 400, 'Add at least one address.'],
      [
        owner.api.post('', body([randomAddress()], { categories: ['ERC20', 'ERC777'] })),
        400,
        'Categories are NATIVE, ERC20, ERC721, ERC1155.',
      ],
      [owner.api.post('', body([randomAddress()], { categories: [] })), 400, 'Pick at least one category.'],
      [
        owner.api.post('', body([randomAddress()], { confirmations: 65 })),
        400,
        'Confirmations are a whole number from 0 to 64.',
      ],
      [
        owner.api.post('', body([randomAddress()], { url: 'ftp://example.com' })),
        400,
        'Webhook URL must be an http or https URL.',
      ],
      [owner.api.patch(`/${webhook.id}/addresses`, {}), 400, 'Give addresses to add or to remove.'],
      [owner.api.patch(`/${webhook.id}/addresses`, { remove: ['nope'] }), 400, 'remove[0] is not an address: nope'],
      [owner.api.patch(`/${UNKNOWN_ID}/addresses`, { add: [randomAddress()] }), 404, 'This webhook does not exist.'],
      [
        owner.api.post(`/${webhook.id}/replay`, { fromBlock: 5, toBlock: 4 }),
        400,
        'A replay covers fromBlock to toBlock, at most 10,000 blocks.',
      ],
      [owner.api.post(`/${UNKNOWN_ID}/status`, { status: 'DISABLED' }), 404, 'This webhook does not exist.'],
      [owner.api.delete(`/${UNKNOWN_ID}`), 404, 'This webhook does not exist.'],
    ];
    for (const [answer, status, message] of refusals) expectAnswer(await answer, status, message);
    const tooMany = await owner.api.patch(`/${webhook.id}/addresses`, {
      add: Array.from({ length: 1001 }, randomAddress),
    });
    expect(tooMany.status).toBe(400);
    expect(await notifyRows(server(), owner.accountId)).toEqual(before);
  });

  it('keeps to 100 000 addresses a webhook and 20 webhooks an account', async () => {
    const owner = await notifyAccount(server().url);
    const webhook = (await owner.api.post<NotifyWebhook>('', body([randomAddress()]))).body.data;
    // As if 99 999 were already watched: the count is what the limit reads.
    await server()
      .db.updateTable('notify_webhooks')
      .set({ address_count: 99_999 })
      .where('id', '=', webhook.id)
      .execute();
    const before = await notifyRows(server(), owner.accountId);
    const over = await owner.api.patch(`/${webhook.id}/addresses`, { add: [randomAddress(), randomAddress()] });
    expectAnswer(over, 400, 'A webhook watches at most 100,000 addresses.');
    expect(await notifyRows(server(), owner.accountId)).toEqual(before);
    const last = await owner.api.patch<NotifyAddressesResult>(`/${webhook.id}/addresses`, { add: [randomAddress()] });
    expect(last.body.data.addressCount).toBe(100_000);

    for (let i = 1; i < 20; i++) expect((await owner.api.post('', body([randomAddress()]))).status).toBe(200);
    expectAnswer(await owner.api.post('', body([randomAddress()])), 400, 'An account has at most 20 webhooks.');
  });

  it("is the account's members' alike, and no one else's", async () => {
    const owner = await notifyAccount(server().url);
    const member = await notifyAccount(server().url);
    const stranger = await notifyAccount(server().url);
    const email = (await member.client.get<{ email: string }>('/api/v1.0/user')).body.data.email;
    await owner.client.post('/api/v1.0/account/user', { email }, owner.headers);
    await member.client.get('/api/v1.0/account');
    const asMember = { 'ebs-account-id': owner.accountId };
    const made = await member.client.post<NotifyWebhook>('/api/v1.0/notify/webhook', body([randomAddress()]), asMember);
    expectAnswer(made, 200, 'Webhook has been created.');
    const id = made.body.data.id;
    expect((await owner.api.get<NotifyWebhook>(`/${id}`)).body.data.id).toBe(id);
    // A stranger naming the webhook under their own account finds nothing.
    expectAnswer(await stranger.api.get(`/${id}`), 404, 'This webhook does not exist.');
    expectAnswer(await stranger.api.get(`/${id}/deliveries`), 404, 'This webhook does not exist.');
    expectAnswer(
      await stranger.api.patch(`/${id}/addresses`, { add: [randomAddress()] }),
      404,
      'This webhook does not exist.',
    );
    expect((await stranger.api.get<NotifyWebhookList>()).body.data.webhooks).toEqual([]);
  });

  it('refuses a private or loopback URL unless allowed, and sends a signed test message it records', async () => {
    const owner = await notifyAccount(strict().url);
    const refused = await owner.api.post('', body([randomAddress()], { url: 'http://169.254.169.254/latest' }));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/private|refused|not allowed/i);

    const tester = await notifyAccount(server().url);
    const webhook = (await tester.api.post<NotifyWebhook>('', body([randomAddress()]))).body.data;
    const test = await tester.api.post<{ statusCode: number | null; body: string }>(`/${webhook.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body.data.statusCode).toBeNull();
    const log = (await tester.api.get<NotifyDeliveryList>(`/${webhook.id}/deliveries`)).body.data;
    expect(log.total).toBe(1);
    expect(log.deliveries[0]).toMatchObject({ test: true, status: 'FAILED', activityCount: 0 });
    expect(log.deliveries[0]?.attempts[0]?.error).toMatch(/refused/);
  });
});
