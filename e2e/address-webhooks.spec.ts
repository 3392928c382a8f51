import { randomInt } from 'node:crypto';
import { expect, type Locator } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { parseEther, toHex } from 'viem';
import { test } from './fixtures.ts';
import {
  accountHeaders,
  admin,
  chooseOption,
  createAccountOverApi,
  expectToastShown,
  idTokenOverApi,
  logIn,
  openSubmenu,
  type ReceivedWebhook,
  recordToasts,
  signUpOverApi,
  startWebhookReceiver,
} from './support.ts';

const ACCOUNT_NAME = 'Address webhooks journey';
const WEBHOOK_NAME = 'Journey deposits';
const AMOUNT = '0.25';
/** The log is read again every 5 seconds, and a block's delivery follows its scan within a second. */
const LOG_TIMEOUT = 30_000;

/** Decimal digits only: the server's lower-case form of the address is the same text. */
const randomAddress = () => `0x${Array.from({ length: 40 }, () => randomInt(10)).join('')}`;
const short = (value: string) => `${value.slice(0, 4)}...${value.slice(-4)}`;
const DATE_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

interface Delivery {
  type: string;
  webhookId: string;
  eventId: string;
  network: string;
  block: { number: number; hash: string; timestamp: number };
  confirmed: boolean;
  removed: boolean;
  replay: boolean;
  activity: Array<Record<string, unknown>>;
}

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver('address webhook receiver got it');
});
test.afterAll(() => receiver.close());

/** What the receiver was posted, those with activity only (a Test delivery has none). */
const activityDeliveries = () =>
  receiver.ofType('ADDRESS_ACTIVITY').filter((delivery) => (JSON.parse(delivery.body) as Delivery).activity.length > 0);

/** The Standard Webhooks signature of a delivery, checked with the account's signing secret; answers its body. */
function verified(secret: string, delivery: ReceivedWebhook): Delivery {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(delivery.headers[name])]),
  );
  const webhook = new Webhook(secret);
  expect(() => webhook.verify(`${delivery.body} `, headers)).toThrow();
  return webhook.verify(delivery.body, headers) as Delivery;
}

/** A delivery log row's cells: the expand button's, then what the columns show. */
const cells = (row: Locator) => row.locator(':scope > td');

/**
 * Address-activity webhooks end to end: Analytics shows no deliveries yet; the owner creates a
 * webhook on Ethereum Sepolia in Services → Webhooks with three addresses pasted into the form,
 * for a receiver on this machine; native coins sent to one of them on the local chain are posted
 * to the receiver, signed with the account's secret, and logged as delivered with the block's
 * number; Replay of that block posts the same event again marked as a replay, logged as such; and
 * Analytics counts both deliveries on Ethereum Sepolia.
 */
test('a webhook created with pasted addresses is posted a signed delivery of a transfer, replayed on request, and counted in Analytics', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(150_000);
  await recordToasts(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, ACCOUNT_NAME);
  // Each delivery is billed: credit keeps the account out of suspension.
  admin('deposit', '--account', accountId, '--amount', '10', '--note', 'webhooks journey credit');
  const headers = accountHeaders(await idTokenOverApi(request, email, password), accountId);
  const heading = (name: string) => page.getByRole('heading', { name, exact: true });
  const sider = page.locator('.ant-layout-sider');

  // 1. Analytics shows no webhook deliveries yet.
  await logIn(page, email, password);
  await page.getByRole('row', { name: new RegExp(ACCOUNT_NAME) }).click();
  await openSubmenu(sider, 'Services');
  await sider.getByRole('link', { name: 'Analytics', exact: true }).click();
  await expect(heading('Analytics')).toBeVisible();
  const usageCard = page.getByTestId('webhook-deliveries-usage');
  await expect(usageCard.locator('.ant-table-placeholder')).toHaveText('No webhook deliveries in this range.');

  // 2. Services → Webhooks: none yet.
  await sider.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/services/webhooks$`));
  await expect(heading('Webhooks')).toBeVisible();
  await expect(page.locator('.ant-table-placeholder')).toHaveText(
    'No webhooks yet. Create one with Create webhook to be told of transfers to and from your addresses.',
  );

  // 3. Create webhook: three addresses pasted into the box, one per line.
  const watched = [randomAddress(), randomAddress(), randomAddress()];
  const target = watched[1] as string;
  await page.getByRole('button', { name: 'Create webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create webhook' });
  const form = dialog.getByTestId('webhook-create-form');
  await expect(form).toBeVisible();
  await form.getByLabel('Name').fill(WEBHOOK_NAME);
  await chooseOption(page, 'Network', 'ETHEREUM SEPOLIA');
  await form.getByLabel('URL').fill(receiver.url);
  const addresses = form.getByTestId('webhook-addresses-input');
  await page.evaluate((text) => navigator.clipboard.writeText(text), watched.join('\n'));
  await addresses.focus();
  await page.keyboard.press('ControlOrMeta+V');
  await expect(addresses).toHaveValue(watched.join('\n'));
  await expect(form.getByText('3 addresses', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expectToastShown(page, 'Webhook has been created.');

  // The webhook's page opens: its three addresses, and an empty delivery log.
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/services/webhooks/[0-9a-f-]{36}$`));
  const webhookId = page.url().split('/').at(-1) as string;
  await expect(heading(WEBHOOK_NAME)).toBeVisible();
  const addressCard = page.getByTestId('webhook-addresses');
  await expect(addressCard.getByTestId('webhook-address-total')).toHaveText('Total: 3');
  await expect(addressCard.locator('.webhook-address')).toHaveText([...watched].sort());
  const log = page.getByTestId('webhook-deliveries');
  const rows = log.locator('.ant-table-tbody > tr.ant-table-row');
  await expect(log.locator('.ant-table-placeholder')).toContainText('No deliveries yet.');

  // 4. 0.25 ETH sent to one of them on the local Sepolia node: one signed delivery of one NATIVE transfer.
  const funded = admin('chain', 'fund', '--network', 'ethereum/sepolia', '--address', target, '--amount', AMOUNT);
  const txHash = funded.match(/\(transaction (0x[0-9a-f]{64})\)/)?.[1];
  expect(txHash).toBeDefined();
  await expect(rows).toHaveCount(1, { timeout: LOG_TIMEOUT });
  await expect(cells(rows.first()).nth(6)).toHaveText('DELIVERED', { timeout: LOG_TIMEOUT });
  await expect(activityDeliveries()).toHaveLength(1);
  const secret = (
    (await (await request.get('/api/v1.0/account/signing-secret', { headers })).json()).data as { secret: string }
  ).secret;
  const [first] = activityDeliveries() as [ReceivedWebhook];
  const delivered = verified(secret, first);
  expect(delivered).toEqual({
    type: 'ADDRESS_ACTIVITY',
    webhookId,
    eventId: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
    network: 'ETHEREUM_SEPOLIA',
    block: {
      number: expect.any(Number),
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      timestamp: expect.any(Number),
    },
    confirmed: false,
    removed: false,
    replay: false,
    activity: [
      {
        category: 'NATIVE',
        fromAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        toAddress: target,
        value: AMOUNT,
        rawValue: toHex(parseEther(AMOUNT)),
        asset: 'ETH',
        contractAddress: null,
        tokenId: null,
        txHash,
        logIndex: null,
      },
    ],
  });
  const block = String(delivered.block.number);
  await expect(cells(rows.first())).toHaveText([
    '',
    DATE_TIME,
    short(delivered.eventId),
    block,
    'unconfirmed',
    '1',
    'DELIVERED',
    'HTTP 200',
  ]);

  // 5. Replay of that block: the same event again, marked as a replay, in the log and at the receiver.
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  const replay = page.getByRole('dialog', { name: 'Replay blocks' });
  await replay.getByLabel('From block').fill(block);
  await replay.getByLabel('To block').fill(block);
  await replay.getByRole('button', { name: 'Start replay' }).click();
  await expectToastShown(page, 'Replay has started.');
  await expect(replay).toHaveCount(0);
  const replayed = rows.filter({ has: page.locator('.ant-tag', { hasText: /^replay$/ }) });
  await expect(replayed).toHaveCount(1, { timeout: LOG_TIMEOUT });
  await expect(cells(replayed)).toHaveText(
    ['', DATE_TIME, short(delivered.eventId), block, 'unconfirmedreplay', '1', 'DELIVERED', 'HTTP 200'],
    { timeout: LOG_TIMEOUT },
  );
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('replay');
  const [, second] = activityDeliveries() as [ReceivedWebhook, ReceivedWebhook];
  expect(second.headers['webhook-id']).not.toBe(first.headers['webhook-id']);
  expect(verified(secret, second)).toEqual({ ...delivered, replay: true });
  expect(receiver.ofType('ADDRESS_ACTIVITY')).toHaveLength(2);

  // 6. Analytics counts both deliveries on Ethereum Sepolia.
  await sider.getByRole('link', { name: 'Analytics', exact: true }).click();
  await expect(heading('Analytics')).toBeVisible();
  await expect(usageCard.locator('.ant-table-tbody > tr.ant-table-row > td')).toHaveText(['Ethereum Sepolia', '2']);
});
