import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { chooseOption, logIn, openSubmenu, recordToasts, signUpOverApi } from './support.ts';

/**
 * A newcomer's first run: welcomed to create an account, the wizard's last step makes a first key
 * and shows it once with the network's URL and snippets, and the RPC page, picking that key by
 * name, sends a first request to the gateway and shows its answer.
 */
test('from sign-up to a first call: welcome, the wizard, a first key, and a request sent from the RPC page', async ({
  page,
  request,
  baseURL,
}) => {
  await recordToasts(page);
  const { email, password } = await signUpOverApi(request);
  await logIn(page, email, password);

  // No account yet: the welcome leads to the wizard.
  await expect(page.getByText('Welcome! Start with an account.')).toBeVisible();
  await page.getByRole('button', { name: 'Create your first account' }).click();
  await expect(page).toHaveURL(/\/accounts\/create$/);
  await page.getByLabel('Account name').fill('First run');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Skip' }).click();
  await expect(page.getByRole('button', { name: 'Done' })).toBeVisible();

  // Congratulations: a first key, shown once, the URL and a curl line already written with it.
  await page.getByRole('button', { name: 'Create your first API key' }).click();
  const shown = page.getByRole('region', { name: 'Create your first API key' });
  await expect(shown.getByText(/displayed only once/)).toBeVisible();
  const keyId = ((await shown.getByRole('region', { name: 'API Key ID' }).locator('code').textContent()) ?? '').trim();
  const key = (
    (await shown.getByRole('region', { name: 'API Key', exact: true }).locator('code').textContent()) ?? ''
  ).trim();
  expect(keyId).toMatch(/^[0-9a-f-]{36}$/);
  const url = `${baseURL}/api/v1.0/rpc/ethereum/mainnet`;
  await expect(shown.getByLabel(/^URL with the key in it/)).toHaveValue(
    `${url}?x-api-key-id=${keyId}&x-api-key=${key}`,
  );
  await expect(shown.getByRole('region', { name: 'curl' })).toContainText(`-H 'x-api-key: ${key}'`);

  // The curl line works as written.
  const answer = await request.post(url, {
    headers: { 'x-api-key-id': keyId, 'x-api-key': key },
    data: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
  });
  expect((await answer.json()).result).toMatch(/^0x[0-9a-f]+$/);

  // Done, then the account's RPC page: the key picked by name, its secret still in this tab.
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('row', { name: /First run/ }).click();
  const sider = page.locator('.ant-layout-sider');
  await openSubmenu(sider, 'Services');
  await sider.getByText('RPC', { exact: true }).click();
  await chooseOption(page, 'Key', 'My first key');
  await expect(page.getByLabel('API key ID')).toHaveValue(keyId);
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue(key);

  const call = page.locator('.ant-card').filter({ has: page.getByText('Make a call', { exact: true }) });
  await call.getByRole('button', { name: 'Send' }).click();
  await expect(call.getByText(/^HTTP 200 in \d+ ms/)).toBeVisible();
  await expect(call.getByLabel('Answer')).toHaveValue(/"result": "0x[0-9a-f]+"/);
});
