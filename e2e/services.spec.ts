import AxeBuilder from '@axe-core/playwright';
import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { admin, createAccountOverApi, logIn, signUpOverApi } from './support.ts';

test('services: RPC always, token forwarding once enabled; the RPC page builds endpoint URLs from the typed key', async ({
  page,
  request,
  baseURL,
}) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Services account');
  const main = page.locator('.account-main');

  await logIn(page, email, password);
  await page.goto(`/account/${accountId}/services`);
  await expect(main.getByRole('link', { name: 'RPC' })).toHaveAttribute('href', `/account/${accountId}/services/rpc`);
  const comingSoon = main.getByText('Token Forwarding (Coming Soon)', { exact: true });
  await expect(comingSoon).toBeVisible();
  await expect(main.locator('a', { has: comingSoon })).toHaveCount(0);

  admin('feature', 'enable', 'TOKEN_FORWARDING', '--account', accountId);
  await page.reload();
  await expect(main.getByRole('link', { name: 'Token Forwarding' })).toHaveAttribute(
    'href',
    `/account/${accountId}/services/token-forwarding/wallets`,
  );
  await expect(main.getByText('Token Forwarding (Coming Soon)')).toHaveCount(0);

  await main.getByRole('link', { name: 'RPC' }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/services/rpc$`));
  await expect(page.getByRole('heading', { name: 'RPC Service' })).toBeVisible();
  // Every input and URL box has a name, every button a label. Colour contrast is the theme's
  // (antd's default blue), not this page's, and is left out here.
  const axe = await new AxeBuilder({ page })
    .include('.account-main')
    .withTags(['wcag2a', 'wcag2aa'])
    .disableRules(['color-contrast'])
    .analyze();
  expect(axe.violations).toEqual([]);
  const ethereum = page.getByRole('textbox', { name: 'Ethereum Mainnet URL' });
  await page.getByLabel('API key ID', { exact: true }).fill('key-id-1');
  await page.getByLabel('API key', { exact: true }).fill('secret-1');
  await expect(ethereum).toHaveValue(
    `${baseURL}/api/v1.0/rpc/ethereum/mainnet?x-api-key-id=key-id-1&x-api-key=secret-1`,
  );
  // The WebSocket endpoints, under the HTTP ones.
  await expect(page.getByRole('textbox', { name: 'Ethereum Mainnet WebSocket URL' })).toHaveValue(
    `${baseURL?.replace(/^http/, 'ws')}/api/v1.0/rpc/ethereum/mainnet/ws?x-api-key-id=key-id-1&x-api-key=secret-1`,
  );

  await page.getByLabel('API key ID', { exact: true }).clear();
  await page.getByLabel('API key', { exact: true }).clear();
  await expect(ethereum).toHaveValue(
    `${baseURL}/api/v1.0/rpc/ethereum/mainnet?x-api-key-id=[API_KEY_ID]&x-api-key=[API_KEY]`,
  );
});

test('services: the Status page lists every network with its state and last 24 hours, reached from the side menu', async ({
  page,
  request,
}) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Status account');
  const main = page.locator('.account-main');

  await logIn(page, email, password);
  await page.goto(`/account/${accountId}/services/rpc`);
  // Each network's state stands beside its URL once the gateway's status has been read.
  await expect(main.getByText('Operational')).toHaveCount(10);
  await page.getByRole('menu').getByRole('link', { name: 'Status', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/services/status$`));
  await expect(page.getByRole('heading', { name: 'Status', level: 2 })).toBeVisible();
  await expect(main.getByRole('heading', { level: 3 })).toHaveCount(10);
  await expect(main.getByRole('heading', { name: 'Ethereum Mainnet', level: 3 })).toBeVisible();
  // Each network says how many of its calls were answered in the last 24 hours, or that it had none.
  await expect(main.getByText(/of calls answered in the last 24 hours|No calls in the last 24 hours/)).toHaveCount(10);
  await expect(
    main.getByRole('list', { name: 'Ethereum Mainnet, the last 24 hours' }).getByRole('listitem'),
  ).toHaveCount(24);
  const axe = await new AxeBuilder({ page })
    .include('.account-main')
    .withTags(['wcag2a', 'wcag2aa'])
    .disableRules(['color-contrast'])
    .analyze();
  expect(axe.violations).toEqual([]);
});
