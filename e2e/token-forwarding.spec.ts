import { randomInt } from 'node:crypto';
import { expect, type Locator, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { test } from './fixtures.ts';
import {
  accountHeaders,
  admin,
  chooseOption as choose,
  createAccountOverApi,
  expectToastShown,
  idTokenOverApi,
  logIn,
  openSubmenu,
  type ReceivedWebhook,
  recordToasts,
  sendCoins,
  signUpOverApi,
  startWebhookReceiver,
} from './support.ts';

const SEPOLIA = 'ETHEREUM SEPOLIA';
const RECEIVER_ANSWER = 'journey receiver got it';

/** Decimal digits only: the server's checksummed form of the address is the same text. */
const randomAddress = () => `0x${Array.from({ length: 40 }, () => randomInt(10)).join('')}`;
const short = (value: string) => `${value.slice(0, 4)}...${value.slice(-4)}`;

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver(RECEIVER_ANSWER);
});
test.afterAll(() => receiver.close());

const tabRows = (page: Page) => page.locator('.ant-tabs-tabpane-active .ant-table-tbody tr.ant-table-row');
const detail = (scope: Locator, title: string) =>
  scope
    .locator('.detail-row')
    .filter({ has: scope.page().getByText(title, { exact: true }) })
    .locator('.detail-row-value');

/** Checks the Standard Webhooks signature of a delivery with the account's signing secret. */
function verified(secret: string, delivery: ReceivedWebhook) {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(delivery.headers[name])]),
  );
  const webhook = new Webhook(secret);
  expect(() => webhook.verify(`${delivery.body} `, headers)).toThrow();
  return webhook.verify(delivery.body, headers) as { type: string; data: Record<string, unknown> };
}

test('token forwarding: wallets validated and created, a deposit forwarded with a signed webhook, wallets managed', async ({
  page,
  request,
  baseURL,
}) => {
  await recordToasts(page);
  test.setTimeout(180_000);
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Forwarding journey');
  expect(admin('feature', 'enable', 'TOKEN_FORWARDING', '--account', accountId)).toContain('TOKEN_FORWARDING enabled');
  // The gateway calls and the forward are billed: credit keeps the account out of suspension.
  admin('deposit', '--account', accountId, '--amount', '10', '--note', 'journey credit');
  const headers = accountHeaders(await idTokenOverApi(request, email, password), accountId);
  const heading = (name: string) => page.getByRole('heading', { name });

  // 1. The wallets page: three tabs, each empty.
  await logIn(page, email, password);
  await page.getByRole('row', { name: /Forwarding journey/ }).click();
  const sider = page.locator('.ant-layout-sider');
  await openSubmenu(sider, 'Services');
  await openSubmenu(sider, 'Token Forwarding');
  await sider.getByRole('link', { name: 'Wallets', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/services/token-forwarding/wallets$`));
  await expect(heading('Token Forwarding Wallets')).toBeVisible();
  const createWallet = page.getByRole('button', { name: 'Create Wallet' });
  await expect(createWallet).toBeVisible();
  const openCreatePage = async () => {
    await createWallet.click();
    await expect(heading('Create Wallet')).toBeVisible();
  };
  const tabs = ['Token Forwarding Wallets', 'Gas Fee Funding Wallets', 'Destination Wallets'];
  await expect(page.getByRole('tab')).toHaveText(tabs);
  await expect(page.getByRole('tab', { name: tabs[0] })).toHaveAttribute('aria-selected', 'true');
  const emptyText = page.locator('.ant-tabs-tabpane-active .ant-table-placeholder');
  await expect(emptyText).toHaveText('No token forwarding wallets yet. Create one with Create Wallet.');
  await page.getByRole('tab', { name: tabs[1] }).click();
  await expect(emptyText).toHaveText(
    'No gas fee funding wallets yet. Create one with Create Wallet to pay the gas of ERC20 forwards.',
  );
  await page.getByRole('tab', { name: tabs[2] }).click();
  await expect(emptyText).toHaveText(
    'No destination wallets yet. Create one with Create Wallet: forwarded tokens are sent to it.',
  );

  // 2. Create Wallet, half the window wide: the required fields of each wallet type.
  await openCreatePage();
  const createForm = page.locator('.create-wallet-form');
  await expect(createForm).toBeVisible();
  const viewportWidth = page.viewportSize()?.width;
  // Narrower windows give the form their full width (forwarding.css).
  expect(viewportWidth).toBeGreaterThan(992);
  expect((await createForm.boundingBox())?.width).toBeCloseTo((viewportWidth ?? 0) / 2, 0);
  const submit = () => page.getByRole('button', { name: 'Create', exact: true }).click();
  const submitShows = async (...messages: string[]) => {
    await submit();
    await expect(page.locator('.ant-form-item-explain-error')).toHaveText(messages);
  };
  await submitShows('Network is required.', 'Token is required.', 'Destination Public Address is required.');
  await expect(page.getByRole('button', { name: 'Test', exact: true })).toBeDisabled();
  await choose(page, 'Wallet Type', 'Gas Fee Funding Wallet');
  await submitShows('Network is required.', 'Name is required.');
  await choose(page, 'Wallet Type', 'Destination Wallet');
  await submitShows('Network is required.', 'Name is required.', 'Destination Public Address is required.');
  await choose(page, 'Wallet Type', 'Token Forwarding Wallet');
  await choose(page, 'Network', SEPOLIA);
  await choose(page, 'Token', 'ERC20');
  const verify = page.getByRole('button', { name: 'Verify', exact: true });
  await expect(verify).toBeDisabled();
  await submitShows(
    'Smart Contract Address is required.',
    'Destination Public Address is required.',
    'Gas Fee Funding Wallet ID is required.',
  );
  await page.getByLabel('Smart Contract Address').fill(randomAddress());
  await expect(verify).toBeEnabled();
  // A new network clears the token, and with it the ERC20 fields.
  const tokenItem = page.locator('.ant-form-item').filter({ has: page.getByLabel('Token', { exact: true }) });
  await expect(tokenItem.locator('.ant-select-selection-item')).toHaveText('ERC20');
  await choose(page, 'Network', 'ETHEREUM MAINNET');
  await expect(tokenItem.locator('.ant-select-selection-item')).toHaveCount(0);
  await expect(page.getByLabel('Smart Contract Address')).toHaveCount(0);
  await choose(page, 'Network', SEPOLIA);
  await choose(page, 'Token', 'ERC20');
  await page.getByLabel('Minimum Forwarding Amount').clear();
  await page.getByLabel('Webhook URL').fill(receiver.url);
  await expect(page.getByRole('button', { name: 'Test', exact: true })).toBeEnabled();
  await submitShows(
    'Smart Contract Address is required.',
    'Minimum Forwarding Amount is required.',
    'Destination Public Address is required.',
    'Gas Fee Funding Wallet ID is required.',
    'Webhook Header is required.',
    'Webhook Header Value is required.',
  );
  await page.getByRole('button', { name: 'Cancel' }).click();

  // 3. A destination wallet, a gas fee funding wallet, then the forwarding wallet with a webhook.
  const destinationAddress = randomAddress();
  await openCreatePage();
  await choose(page, 'Wallet Type', 'Destination Wallet');
  await choose(page, 'Network', SEPOLIA);
  await page.getByLabel('Name', { exact: true }).fill('Journey destination');
  await page.getByLabel('Destination Public Address').fill(destinationAddress);
  await submit();
  await expectToastShown(page, 'Wallet has been created.');
  await expect(heading('Token Forwarding Wallets')).toBeVisible();
  // The list opens on the tab of the wallet just made.
  await expect(page.getByRole('tab', { name: 'Destination Wallets' })).toHaveAttribute('aria-selected', 'true');
  await expect(tabRows(page)).toHaveCount(1);
  await expect(tabRows(page).locator('td')).toHaveText(['Journey destination', SEPOLIA, destinationAddress]);

  await openCreatePage();
  await choose(page, 'Wallet Type', 'Gas Fee Funding Wallet');
  await choose(page, 'Network', SEPOLIA);
  await page.getByLabel('Name', { exact: true }).fill('Journey gas');
  await submit();
  await expectToastShown(page, 'Wallet has been created.');
  await expect(heading('Token Forwarding Wallets')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Gas Fee Funding Wallets' })).toHaveAttribute('aria-selected', 'true');
  await expect(tabRows(page)).toHaveCount(1);
  const gasCells = tabRows(page).locator('td');
  await expect(gasCells.nth(1)).toHaveText('Journey gas');
  await expect(gasCells.nth(2)).toHaveText(SEPOLIA);
  await expect(gasCells.nth(4)).toHaveText('0 ETH');
  const gasAddress = (await gasCells.nth(3).textContent()) ?? '';
  expect(gasAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

  await openCreatePage();
  await choose(page, 'Network', SEPOLIA);
  await choose(page, 'Token', 'ETH');
  await page.getByLabel('Minimum Forwarding Amount').fill('0.001');
  await choose(page, 'Destination Public Address', `Journey destination (${destinationAddress})`);
  await page.getByLabel('Webhook URL').fill(receiver.url);
  await page.getByLabel('Webhook Header', { exact: true }).fill('X-Journey');
  await page.getByLabel('Webhook Header Value').fill('journey-1');
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const response = page.getByRole('dialog', { name: 'Webhook Response' });
  await expect(response.getByTestId('webhook-response')).toContainText('"status": 200');
  await expect(response.getByTestId('webhook-response')).toContainText(`"body": "${RECEIVER_ANSWER}"`);
  await response.getByRole('button', { name: 'Close' }).first().click();
  await expect(response).toHaveCount(0);
  const [testDelivery] = receiver.ofType('token_forwarding.test');
  expect(testDelivery?.headers['x-journey']).toBe('journey-1');
  await submit();
  await expectToastShown(page, 'Wallet has been created.');
  await expect(heading('Token Forwarding Wallets')).toBeVisible();
  await expect(tabRows(page)).toHaveCount(1);
  const walletCells = tabRows(page).locator('td');
  await expect(walletCells.nth(1)).toHaveText('ETH');
  await expect(walletCells.nth(3)).toHaveText('ENABLED');
  const walletId = (await walletCells.nth(0).textContent()) ?? '';
  const walletAddress = (await walletCells.nth(2).textContent()) ?? '';
  expect(walletAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

  // 4. 0.25 ETH sent to the forwarding wallet through the gateway is forwarded, and the webhook signed.
  const key = await request.post('/api/v1.0/key', { headers, data: { name: 'Forwarding journey key' } });
  const { keyId, key: secretKey } = ((await key.json()).data as { key: { keyId: string; key: string } }).key;
  const gateway = `${baseURL}/api/v1.0/rpc/ethereum/sepolia?x-api-key-id=${keyId}&x-api-key=${secretKey}`;
  await sider.getByRole('link', { name: 'Transactions', exact: true }).click();
  await expect(heading('Token Forwarding Transactions')).toBeVisible();
  await expect(page.locator('.ant-table-placeholder')).toContainText('No transactions yet.');
  await sendCoins(gateway, walletAddress, 25n * 10n ** 16n);

  type Forward = {
    id: string;
    amount: string;
    status: string;
    webhookStatus: string;
    webhookId: string;
    webhookLog: unknown[];
    metadata: { transactionHash: string; originalBalance: string };
  };
  let forward: Forward | undefined;
  await expect
    .poll(
      async () => {
        const list = await request.get('/api/v1.0/token-forwarding/transaction', { headers });
        [forward] = (await list.json()).data.tokenForwardingTransactions as Forward[];
        return forward && [forward.status, forward.webhookStatus];
      },
      { timeout: 30_000 },
    )
    .toEqual(['COMPLETED', 'DELIVERED']);
  const done = forward as Forward;
  const hash = done.metadata.transactionHash;
  // The forward sends the deposit less its own network fee.
  expect(Number(done.amount)).toBeGreaterThan(0.2499);
  expect(Number(done.amount)).toBeLessThan(0.25);
  // spec B §9: 5 decimals with a plus sign, in green.
  const shownAmount = `+${Number(done.amount).toFixed(5)}`;

  await page.reload();
  await expect(heading('Token Forwarding Transactions')).toBeVisible();
  const txRows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(txRows).toHaveCount(1);
  await expect(txRows.locator('td')).toHaveText([
    short(walletId),
    short(walletAddress),
    short(destinationAddress),
    short(hash),
    SEPOLIA,
    shownAmount,
    'DELIVERED',
    /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
  ]);
  await expect(txRows.locator('.amount-positive')).toHaveCSS('color', 'rgb(35, 120, 4)');
  await txRows.click();
  const details = page.getByRole('dialog', { name: 'Transaction Details' });
  await expect(detail(details, 'Amount')).toHaveText(shownAmount);
  await expect(detail(details, 'Amount').locator('.amount-positive')).toHaveCSS('color', 'rgb(35, 120, 4)');
  await expect(detail(details, 'Transaction Hash').getByRole('link')).toHaveAttribute(
    'href',
    `https://sepolia.etherscan.io/tx/${hash}`,
  );
  await expect(detail(details, 'Gas Used')).toHaveText('21000 Wei');
  // Its status and confirmations, and why less than the deposit arrived.
  await expect(detail(details, 'Status')).toHaveText(/^COMPLETED · \d+ confirmations?$/);
  await expect(detail(details, 'Why less arrived')).toHaveText(
    `The deposit was ${done.metadata.originalBalance} ETH. The forward's gas was paid from it in ETH, so ${done.amount} ETH was sent on.`,
  );
  await expect(detail(details, 'Webhook Status')).toHaveText('DELIVERED');
  await detail(details, 'Webhook Log').getByText('View', { exact: true }).click();
  await expect
    .poll(() => detail(details, 'Webhook Log').locator('pre').textContent())
    .toBe(JSON.stringify(done.webhookLog, null, 2));
  await details.getByRole('button', { name: 'Close' }).click();

  const secret = (
    (await (await request.get('/api/v1.0/account/signing-secret', { headers })).json()).data as { secret: string }
  ).secret;
  const [delivery] = receiver.ofType('token_forwarding.completed');
  expect(delivery?.headers['x-journey']).toBe('journey-1');
  expect(delivery?.headers['webhook-id']).toBe(done.webhookId);
  expect(verified(secret, delivery as ReceivedWebhook)).toMatchObject({
    type: 'token_forwarding.completed',
    data: { id: done.id, tokenForwardingWalletId: walletId, amount: done.amount, status: 'COMPLETED' },
  });
  expect(verified(secret, testDelivery as ReceivedWebhook).type).toBe('token_forwarding.test');

  // 5. View Transactions searches for the wallet; a 0x value filters by address; clearing shows all.
  await sider.getByRole('link', { name: 'Wallets', exact: true }).click();
  await expect(heading('Token Forwarding Wallets')).toBeVisible();
  await tabRows(page).click();
  const walletDrawer = page.getByRole('dialog', { name: 'Wallet Details' });
  await walletDrawer.getByRole('button', { name: 'View Transactions' }).click();
  await expect(heading('Token Forwarding Transactions')).toBeVisible();
  const search = page.getByPlaceholder('Wallet ID/ Wallet Address');
  await expect(search).toHaveValue(walletId);
  await expect(txRows).toHaveCount(1);
  const searched = (filter: Record<string, string>) =>
    page.waitForRequest((r) => {
      if (!r.url().includes('/api/v1.0/token-forwarding/transaction')) return false;
      return new URL(r.url()).search === (Object.keys(filter).length ? `?${new URLSearchParams(filter)}` : '');
    });
  const otherAddress = randomAddress();
  let asked = searched({ address: otherAddress });
  await search.fill(otherAddress);
  await asked;
  await expect(page.locator('.ant-table-placeholder')).toHaveText(
    'No transactions match this wallet ID or wallet address. Clear the search to see them all.',
  );
  asked = searched({ address: walletAddress });
  await search.fill(walletAddress);
  await asked;
  await expect(txRows).toHaveCount(1);
  asked = searched({});
  await page.locator('.ant-input-clear-icon').click();
  await expect(search).toHaveValue('');
  await asked;
  await expect(txRows).toHaveCount(1);

  // 6. Disable and enable the forwarding wallet; refresh, rename and delete the others.
  await sider.getByRole('link', { name: 'Wallets', exact: true }).click();
  await expect(heading('Token Forwarding Wallets')).toBeVisible();
  const statusDot = tabRows(page).locator('.ant-badge-status-dot');
  await tabRows(page).click();
  await walletDrawer.getByRole('button', { name: 'Disable Wallet' }).click();
  const disable = page.getByRole('dialog', { name: 'Disable Wallet' });
  await disable.getByLabel('Reason (optional)').fill('Journey pause');
  await disable.getByRole('button', { name: 'Disable Wallet' }).click();
  await expectToastShown(page, 'Wallet has been disabled');
  await expect(walletDrawer).toHaveCount(0);
  await expect(tabRows(page).locator('td').nth(3)).toHaveText('DISABLED');
  await expect(statusDot).toHaveClass(/ant-badge-status-default/);
  const wallets = await request.get('/api/v1.0/token-forwarding/wallet', { headers });
  expect((await wallets.json()).data.tokenForwardingWallets).toMatchObject([
    { id: walletId, statusReason: 'Journey pause' },
  ]);
  await tabRows(page).click();
  await expect(walletDrawer.getByRole('button', { name: 'Disable Wallet' })).toHaveCount(0);
  await walletDrawer.getByRole('button', { name: 'Enable Wallet' }).click();
  await expectToastShown(page, 'Wallet has been enabled');
  await expect(tabRows(page).locator('td').nth(3)).toHaveText('ENABLED');
  await expect(statusDot).toHaveClass(/ant-badge-status-success/);

  await sendCoins(gateway, gasAddress, 10n ** 17n);
  await page.getByRole('tab', { name: 'Gas Fee Funding Wallets' }).click();
  await expect(gasCells.nth(4)).toHaveText('0 ETH');
  // In a 1440 × 900 window all six columns fit, "Balance Last Checked At" included.
  await page.setViewportSize({ width: 1440, height: 900 });
  const gasTable = page.getByRole('tabpanel').locator('.ant-table-content');
  await expect(page.getByRole('columnheader', { name: 'Balance Last Checked At' })).toBeInViewport({ ratio: 1 });
  expect(await gasTable.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(1);
  await tabRows(page).click();
  await walletDrawer.getByRole('button', { name: 'Refresh Balance' }).click();
  await expectToastShown(page, 'Balance has been refreshed.');
  await expect(gasCells.nth(4)).toHaveText('0.1 ETH');
  // The drawer stays open with the new balance; it closes as any drawer does.
  await expect(walletDrawer.getByText('0.1', { exact: true })).toBeVisible();
  await walletDrawer.getByRole('button', { name: 'Close' }).click();
  await expect(walletDrawer).toBeHidden();

  await page.getByRole('tab', { name: 'Destination Wallets' }).click();
  await expect(tabRows(page).locator('td').first()).toHaveText('Journey destination');
  await tabRows(page).click();
  await walletDrawer.getByRole('button', { name: 'Update Name' }).click();
  const rename = page.getByRole('dialog', { name: 'Update Name' });
  await rename.getByLabel('Name').fill('Journey cold storage');
  // A loaded machine can lose the click that lands as the just-opened modal settles (one CI run in
  // many): the Update is clicked again while the dialog is still open, and only then.
  await expect(async () => {
    if (await rename.isVisible()) await rename.getByRole('button', { name: 'Update' }).click();
    await expectToastShown(page, 'Wallet name has been updated.', { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await expect(tabRows(page).locator('td').first()).toHaveText('Journey cold storage');
  await tabRows(page).click();
  await walletDrawer.getByRole('button', { name: 'Delete Wallet' }).click();
  const remove = page.getByRole('dialog', { name: 'Delete Wallet' });
  await expect(remove).toContainText('This wallet will be permanently deleted, related services may be effected.');
  await remove.getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToastShown(page, 'Wallet has been deleted');
  await expect(emptyText).toHaveText(
    'No destination wallets yet. Create one with Create Wallet: forwarded tokens are sent to it.',
  );
});
