import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import {
  accountHeaders,
  admin,
  copyShownKey,
  createAccountOverApi,
  expectToastShown,
  idTokenOverApi,
  logIn,
  openSubmenu,
  recordToasts,
  signUpOverApi,
} from './support.ts';

const card = (page: Page, title: string) =>
  page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });
const figure = (page: Page, title: string) => card(page, title).locator('.ant-statistic-content-value');

const call = (method: string, id = 1) => ({ jsonrpc: '2.0', id, method, params: [] });

/**
 * The service end to end: a key made on the API Keys page and copied from its one-time modal, pasted
 * into the RPC page, its URL called, the billing job run, and the calls seen as usage, as a bill and
 * as lower credit. Then the key deactivated (refused within a second) and deleted (gone).
 * Metabit Testnet is priced 250 000 USD per million compute units here (0.25 USD a unit) so that the
 * bill shows in 2 decimals; no other journey checks a figure of it (the sample account of the
 * accessibility journey calls it, and checks none).
 */
test('a key calls the RPC endpoint; the calls become usage, a bill and lower credit; deactivated, it is refused', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  await recordToasts(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'RPC journey');
  admin('deposit', '--account', accountId, '--amount', '10', '--note', 'journey credit');
  expect(admin('price', 'set', 'RPC_API_METABIT_TESTNET', '250000')).toContain(
    'RPC_API_METABIT_TESTNET now costs 250000 USD per million compute units (0.25 USD per unit)',
  );
  // The gateway reads prices every few seconds: call once it prices at the new one, as the public list shows.
  await expect
    .poll(async () => {
      const pricing = (await (await request.get('/api/v1.0/rpc/pricing')).json()).data as {
        networks: Array<{ resourceName: string; usdPerMillionCu: string }>;
      };
      return pricing.networks.find((n) => n.resourceName === 'RPC_API_METABIT_TESTNET')?.usdPerMillionCu;
    })
    .toBe('250000');

  await logIn(page, email, password);
  await page.getByRole('row', { name: /RPC journey/ }).click();
  await page.getByRole('menuitem', { name: 'API Keys' }).click();
  await page.getByRole('button', { name: 'Generate New API Keys' }).click();
  const create = page.getByRole('dialog', { name: 'Create API Key' });
  await create.getByLabel('API Key Name').fill('Journey RPC key');
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  const { keyId, key } = await copyShownKey(page);

  // The RPC page: paste both, copy the Metabit Testnet URL as shown.
  const sider = page.locator('.ant-layout-sider');
  await openSubmenu(sider, 'Services');
  await sider.getByText('RPC', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'RPC Service' })).toBeVisible();
  await page.getByLabel('API key ID').fill(keyId);
  await page.getByLabel('API key', { exact: true }).fill(key);
  const box = page.getByRole('textbox', { name: 'Metabit Testnet URL' });
  const url = `${baseURL}/api/v1.0/rpc/metabit/testnet?x-api-key-id=${keyId}&x-api-key=${key}`;
  await expect(box).toHaveValue(url);
  await page.locator('.ant-list-item').filter({ has: box }).getByRole('button', { name: 'Copy' }).click();
  await expectToastShown(page, 'Text has been copied to clipboard.');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // Five requests: three single calls and a batch of two. eth_chainId and net_version cost 0 compute
  // units, eth_blockNumber and eth_gasPrice 1 each: 2 units.
  const chainId = await request.post(url, { data: call('eth_chainId') });
  expect(await chainId.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0xf231' });
  expect((await (await request.post(url, { data: call('eth_blockNumber', 2) })).json()).result).toMatch(/^0x/);
  expect((await request.post(url, { data: call('net_version', 3) })).status()).toBe(200);
  const batch = await request.post(url, { data: [call('eth_chainId', 4), call('eth_gasPrice', 5)] });
  expect(((await batch.json()) as Array<{ id: number }>).map((a) => a.id)).toEqual([4, 5]);

  // The operator bills now (the schedule bills closed days): 2 units × 0.25 = 0.50 USD. The run bills
  // every account's usage, other journeys' too, so its counts are not this account's; the pages
  // below show this account's bill.
  expect(admin('jobs', 'run', 'billing')).toMatch(/"errors":\[\]/);

  await openSubmenu(sider, 'Billings');
  await sider.getByText('Overview', { exact: true }).last().click();
  await expect(page.getByRole('button', { name: 'Buy Credits' })).toBeVisible();
  await expect(page.locator('.ant-statistic-content')).toHaveText('9.50');
  await page.getByRole('tab', { name: 'Service Usage History' }).click();
  const usageRows = page.locator('.ant-tabs-tabpane-active .ant-table-tbody tr.ant-table-row');
  // One record of the five calls, or two where another journey's billing run (it bills every
  // account) came between them: each this network's and billed, together 5 calls (Usage), 2 units
  // (Compute Units) and 0.50 USD (Price, the last column).
  await expect(usageRows.first()).toContainText('BILLED');
  const usage = await usageRows.evaluateAll((rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
  );
  expect(usage.map((cells) => [cells[0], cells[3]])).toEqual(usage.map(() => ['RPC API METABIT TESTNET', 'BILLED']));
  const usageSum = (index: number) => usage.reduce((sum, cells) => sum + Number(cells.at(index)), 0);
  expect([usageSum(1), usageSum(2), usageSum(-1).toFixed(5)]).toEqual([5, 2, '0.50000']);
  await page.getByRole('tab', { name: 'Transaction History' }).click();
  await expect(page.locator('.ant-tabs-tabpane-active .ant-table-tbody tr.ant-table-row').first()).toContainText(
    'Resource usage withdrawal',
  );

  // The overview: the month's bill and calls, and the calls in the usage chart.
  await sider.getByText('Overview', { exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/overview$`));
  await expect(figure(page, 'Available Credits (USD)')).toHaveText('9.50');
  await expect(figure(page, 'Monthly Bill')).toHaveText('0.50');
  await expect(figure(page, 'Monthly API Calls')).toHaveText('5');
  const usageChart = card(page, 'Service Usage').locator('[aria-label*="Metabit Testnet requests"]');
  await expect(usageChart).toHaveAttribute('aria-label', /5/);
  await expect(card(page, 'Account Billing').locator('[aria-label*="Metabit Testnet requests"]')).toHaveAttribute(
    'aria-label',
    /0\.5/,
  );
  // The same figures everywhere: the bill posted (nothing left to post), the calls, token forwards
  // apart; Analytics counts the same five calls and two compute units, none refused; the prices say
  // what one compute unit costs.
  await expect(card(page, 'Monthly Bill')).toContainText('Not yet posted: 0.00 USD.');
  await expect(card(page, 'Monthly API Calls')).toContainText('Token forwards, counted apart: 0.');
  // The gateway writes its figures every few seconds: wait until they are there, as the page will read them.
  const headers = accountHeaders(await idTokenOverApi(request, email, password), accountId);
  await expect
    .poll(async () => {
      const answer = await request.get('/api/v1.0/usage/api/methods', { headers });
      return ((await answer.json()).data.methods as Array<{ calls: number }>).reduce((sum, m) => sum + m.calls, 0);
    })
    .toBe(5);
  // The Services and Billings submenus are still open from above.
  await sider.getByText('Analytics', { exact: true }).click();
  const methodRows = page.locator('.insight-card').filter({ hasText: 'Methods' }).locator('tr.ant-table-row');
  await expect(methodRows).toHaveCount(4);
  const columnSum = async (index: number) =>
    (await methodRows.evaluateAll((rows, i) => rows.map((r) => r.querySelectorAll('td')[i]?.textContent ?? '0'), index))
      .map(Number)
      .reduce((a, b) => a + b, 0);
  // Calls, Compute units, and Refused (after Errors and Error rate).
  expect(await columnSum(2)).toBe(5);
  expect(await columnSum(3)).toBe(2);
  expect(await columnSum(6)).toBe(0);
  await sider.getByText('Overview', { exact: true }).last().click();
  await page.getByRole('tab', { name: 'Prices' }).click();
  const metabit = page.locator('.ant-tabs-tabpane-active tr').filter({ hasText: 'Metabit Testnet requests' });
  await expect(metabit.locator('td')).toHaveText([
    /^Metabit Testnet requests/,
    '0.25 per compute unit',
    '5',
    '0.50000',
  ]);
  await sider.getByText('Overview', { exact: true }).first().click();

  // Deactivated: refused within a second. Deleted: gone from the list and refused.
  await page.getByRole('menuitem', { name: 'API Keys' }).click();
  const row = page.getByRole('row').filter({ has: page.getByText('Journey RPC key', { exact: true }) });
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await page.getByRole('dialog', { name: 'Deactivate API Key' }).getByRole('button', { name: 'Deactivate' }).click();
  await expect(row.getByText('INACTIVE', { exact: true })).toBeVisible();
  // Within one second of the page showing it INACTIVE.
  await expect
    .poll(async () => (await request.post(url, { data: call('eth_chainId') })).status(), {
      timeout: 1000,
      intervals: [50],
    })
    .toBe(403);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete API Key' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await expect
    .poll(
      async () => {
        const deleted = await request.post(url, { data: call('eth_chainId') });
        return [deleted.status(), (await deleted.json()).error.message];
      },
      { timeout: 1000, intervals: [50] },
    )
    .toEqual([401, 'This API key has been deleted.']);
});
