import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import {
  accountHeaders,
  admin,
  createAccountOverApi,
  idTokenOverApi,
  logIn,
  openSubmenu,
  signUpOverApi,
} from './support.ts';

const NETWORK = 'bsc/testnet';
const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params });

/** The alert e-mails sent to an address, newest first, read from the dev outbox. */
async function alertMails(request: APIRequestContext, email: string) {
  const mails = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as Array<{
    subject: string;
    text: string;
  }>;
  return mails.filter((m) => m.subject.includes('alert'));
}

/** A file the page downloads on a click, as its text. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent('download');
  await click();
  const file = await download;
  return { name: file.suggestedFilename(), text: await readFile((await file.path()) as string, 'utf8') };
}

/**
 * The insight end to end: three methods called, one failing; the Analytics page and the request
 * log show them once the gateway has written its figures; a low-credit alert e-mails once, shows
 * above the pages and clears after a deposit; both billing tables export their filtered rows.
 */
test('a developer sees per-method analytics, the failed call in the request log, a low-credit alert and CSV exports', async ({
  page,
  request,
}) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Insight journey');
  admin('deposit', '--account', accountId, '--amount', '10', '--note', 'insight credit');
  const idToken = await idTokenOverApi(request, email, password);
  const headers = accountHeaders(idToken, accountId);
  const created = await request.post('/api/v1.0/key/', { data: { apiKeyName: 'Insight key' }, headers });
  const { keyId, key } = (await created.json()).data.key as { keyId: string; key: string };
  const url = `/api/v1.0/rpc/${NETWORK}?x-api-key-id=${keyId}&x-api-key=${key}`;

  // Three methods; eth_getBalance with a bad address fails at the node.
  for (let i = 0; i < 2; i++)
    expect((await (await request.post(url, { data: call('eth_chainId') })).json()).result).toBe('0x61');
  expect((await request.post(url, { data: call('eth_blockNumber') })).status()).toBe(200);
  const failing = await request.post(url, { data: call('eth_getBalance', ['not an address', 'latest']) });
  expect((await failing.json()).error).toBeDefined();

  // The gateway writes its figures every few seconds: wait until they are there, as the page will read them.
  await expect
    .poll(async () => {
      const answer = await request.get('/api/v1.0/usage/api/methods', { headers });
      const methods = (await answer.json()).data.methods as Array<{ calls: number }>;
      return methods.reduce((sum, m) => sum + m.calls, 0);
    })
    .toBe(4);

  await logIn(page, email, password);
  await page.getByRole('row', { name: /Insight journey/ }).click();
  const sider = page.locator('.ant-layout-sider');
  await openSubmenu(sider, 'Services');
  await sider.getByText('Analytics', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
  const methods = page.locator('.insight-card').filter({ hasText: 'Methods' }).locator('tr.ant-table-row');
  await expect(methods).toHaveCount(3);
  // Each row's cells without its compute units (the fourth): what a method costs is the pricing's to say.
  const cells = async (method: string) => {
    const texts = await methods
      .filter({ has: page.getByText(method, { exact: true }) })
      .locator('td')
      .allTextContents();
    return [...texts.slice(0, 3), ...texts.slice(4)];
  };
  expect((await cells('eth_chainId')).slice(0, 5)).toEqual(['eth_chainId', 'BSC Testnet', '2', '0', '0%']);
  expect((await cells('eth_blockNumber')).slice(0, 5)).toEqual(['eth_blockNumber', 'BSC Testnet', '1', '0', '0%']);
  expect((await cells('eth_getBalance')).slice(0, 5)).toEqual(['eth_getBalance', 'BSC Testnet', '1', '1', '100%']);
  await expect(page.locator('.insight-chart canvas')).toHaveCount(3);

  // The request log: the failed call first when failed requests alone are asked for.
  await page.getByRole('link', { name: 'Request log', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Request Log' })).toBeVisible();
  await expect(page.locator('tr.ant-table-row')).toHaveCount(4);
  await page.getByRole('checkbox', { name: 'Failed only' }).check();
  const rows = page.locator('tr.ant-table-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('eth_getBalance');
  await expect(rows.first()).toContainText('Insight key');
  await expect(rows.first().locator('td').nth(5)).toHaveText(/^-32\d{3}$/);
  // Opened, the row says what the gateway answered: the node's error and its message.
  await rows.first().click();
  const detail = page.locator('.request-detail');
  await expect(detail).toContainText("An error answer from the network's node");
  await expect(detail).toContainText(/HTTP 200 · -32\d{3}: \S/);

  // A low-credit alert: 10 USD is under 20. One e-mail, however often the job runs; the notice shows.
  await sider.getByText('Settings', { exact: true }).click();
  const alertsCard = page.locator('.ant-card').filter({ has: page.getByText('Alerts', { exact: true }) });
  await alertsCard.getByRole('checkbox', { name: 'Available credit below' }).check();
  await alertsCard.getByRole('spinbutton', { name: 'Available credit below (USD)' }).fill('20');
  await alertsCard.getByRole('button', { name: 'Save alerts' }).click();
  await expect(page.getByText('Alerts saved')).toBeVisible();
  // Run twice, and the server's own job may run first: whichever starts it, one e-mail, never two.
  admin('jobs', 'run', 'alerts');
  admin('jobs', 'run', 'alerts');
  const subjects = async () => (await alertMails(request, email)).map((m) => m.subject);
  await expect.poll(subjects).toEqual([expect.stringMatching(/Low credit alert started on "Insight journey"/)]);
  const started = await alertMails(request, email);
  expect(started[0]?.text).toContain('Available credit is 10.00 USD, below 20.00 USD.');
  await page.reload();
  const notice = page.locator('.alerts-bar');
  await expect(notice).toContainText('Available credit is 10.00 USD, below 20.00 USD.');

  // A deposit clears it: one more e-mail, and the notice goes.
  admin('deposit', '--account', accountId, '--amount', '15', '--note', 'top up');
  admin('jobs', 'run', 'alerts');
  await expect
    .poll(subjects)
    .toEqual([expect.stringMatching(/Low credit alert cleared/), expect.stringMatching(/Low credit alert started/)]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(notice).toHaveCount(0);

  // The CSVs, with the tables' filters: manual deposits only; this network's usage only.
  await openSubmenu(sider, 'Billings');
  await sider.getByText('Overview', { exact: true }).last().click();
  const history = page.locator('.ant-tabs-tabpane-active');
  await history
    .getByRole('columnheader', { name: /Transaction Type/ })
    .getByRole('button')
    .click();
  await page.locator('.ant-table-filter-dropdown').getByText('Manual deposit', { exact: true }).click();
  await page.locator('.ant-table-filter-dropdown').getByRole('button', { name: 'OK' }).click();
  await expect(history.locator('tr.ant-table-row')).toHaveCount(2);
  const transactions = await downloaded(page, () => history.getByRole('button', { name: 'Export CSV' }).click());
  expect(transactions.name).toBe(`transactions-${accountId}.csv`);
  const lines = transactions.text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('Date,Description,Type,Amount (USD),Status,Transaction ID,Note');
  expect(lines.slice(1).map((line) => line.split(',').slice(1, 4).join(','))).toEqual([
    'Manual deposit,ADMIN_MANUAL_DEPOSIT,15',
    'Manual deposit,ADMIN_MANUAL_DEPOSIT,10',
  ]);

  // This month's statement, made on demand.
  const statement = await downloaded(page, () => history.getByRole('button', { name: 'Download statement' }).click());
  expect(statement.name).toMatch(/^statement-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect(statement.text.startsWith('%PDF-')).toBe(true);

  await page.getByRole('tab', { name: 'Service Usage History' }).click();
  const usage = page.locator('.ant-tabs-tabpane-active');
  await expect(usage.locator('tr.ant-table-row')).toHaveCount(1);
  await usage
    .getByRole('columnheader', { name: /Resource Name/ })
    .getByRole('button')
    .click();
  await page.locator('.ant-table-filter-dropdown:visible').getByText('RPC API BSC TESTNET', { exact: true }).click();
  await page.locator('.ant-table-filter-dropdown:visible').getByRole('button', { name: 'OK' }).click();
  const usageFile = await downloaded(page, () => usage.getByRole('button', { name: 'Export CSV' }).click());
  const usageLines = usageFile.text.trimEnd().split('\r\n');
  expect(usageLines[0]).toBe(
    'Date,Description,Resource,Requests,Compute Units,Unit price (USD),Price (USD),Status,API key ID',
  );
  // The failed call was answered by the node: metered like the others.
  expect(usageLines.slice(1).map((line) => line.split(',').slice(2, 4).join(','))).toEqual(['RPC_API_BSC_TESTNET,4']);
});
