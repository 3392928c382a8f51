import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { admin, createAccountOverApi, logIn, openSubmenu, openUserMenu, signUpOverApi } from './support.ts';

test('the account layout: hidden rows, stored account, side menu, feature-gated entries, breadcrumb', async ({
  page,
  request,
}) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Layout account');
  await createAccountOverApi(request, email, password, 'ACCOUNT_CREATION');
  const listRequest = page.waitForRequest((r) => r.url().includes('/api/v1.0/account?'));
  await logIn(page, email, password);

  // The list is fetched 100 at a time from offset 0, with ebs-account-id sent empty.
  const list = await listRequest;
  expect(new URL(list.url()).search).toBe('?limit=100&offset=0');
  expect(await list.headerValue('ebs-account-id')).toBe('');

  // The header: 64 px with the product title.
  await expect(page.locator('.ant-layout-header')).toHaveCSS('height', '64px');
  await expect(page.locator('.ant-layout-header')).toContainText('EBS Console');

  // My Accounts hides ACCOUNT_CREATION and shows no side menu.
  await expect(page.getByRole('row', { name: /Layout account/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /ACCOUNT_CREATION/ })).toHaveCount(0);
  await expect(page.locator('.ant-layout-sider')).toHaveCount(0);
  const table = await page.locator('.ant-table').boundingBox();
  const pager = await page.locator('.ant-pagination').boundingBox();
  expect(Math.abs((table?.x ?? 0) + (table?.width ?? 0) - ((pager?.x ?? 0) + (pager?.width ?? 0)))).toBeLessThan(2);
  expect(pager?.y ?? 0).toBeGreaterThan(table?.y ?? 0);

  // Opening the account stores it with its cards and features, then shows the account layout.
  await page.getByRole('row', { name: /Layout account/ }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/overview$`));
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('currentAccount') ?? 'null'));
  expect(stored).toMatchObject({
    id: accountId,
    name: 'Layout account',
    cards: [],
    features: { tokenForwardingEnabled: false },
  });
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toMatch(/eyJ/); // no token in storage

  const sider = page.locator('.ant-layout-sider');
  await expect(sider).toHaveCSS('width', '200px');
  await openSubmenu(sider, 'Services');
  await expect(sider.getByText('RPC', { exact: true })).toBeVisible();
  await expect(sider.getByText('Token Forwarding', { exact: true })).toHaveCount(0);
  await openSubmenu(sider, 'Billings');
  await sider.getByText('Buy Credits', { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/billings/buyCredits$`));
  await expect(sider.locator('.ant-menu-item-selected')).toHaveText('Buy Credits');
  const crumbs = page.locator('.account-breadcrumb');
  await expect(crumbs).toContainText('Layout account');
  await expect(crumbs).toContainText('Billings');
  await crumbs.getByRole('link', { name: 'Overview' }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/billings/overview$`));
  await crumbs.getByRole('link', { name: 'Layout account' }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/overview$`));
  await expect(sider.getByRole('link', { name: 'Documentation' })).toHaveAttribute('target', '_blank');

  // Collapsing narrows the side menu to 40 px: a button named for what it does, reached by Tab.
  await sider.getByRole('button', { name: 'Collapse menu' }).click();
  await expect(sider).toHaveCSS('width', '40px');
  const expand = sider.getByRole('button', { name: 'Expand menu' });
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await expand.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(expand).toBeFocused();
  await expect(expand).toHaveCSS('outline-style', 'solid');
  await page.keyboard.press('Enter');
  await expect(sider).toHaveCSS('width', '200px');
  await expect(sider.getByRole('button', { name: 'Collapse menu' })).toBeFocused();

  // An operator enables token forwarding; reopening the account shows its entries.
  expect(admin('feature', 'enable', 'TOKEN_FORWARDING', '--account', accountId)).toContain('TOKEN_FORWARDING enabled');
  await page.goto('/accounts');
  await page.getByRole('row', { name: /Layout account/ }).click();
  await openSubmenu(sider, 'Services');
  await openSubmenu(sider, 'Token Forwarding');
  await expect(sider.getByText('Wallets', { exact: true })).toBeVisible();
  await expect(sider.getByText('Transactions', { exact: true })).toBeVisible();

  // The user menu; Ambassador Program appears once an operator makes the user an ambassador.
  await openUserMenu(page, email);
  for (const entry of ['Create account', 'My accounts', 'Change password', 'Sign out']) {
    await expect(page.getByRole('menuitem', { name: entry })).toBeVisible();
  }
  await expect(page.getByRole('menuitem', { name: 'Ambassador Program' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  expect(admin('ambassador', 'grant', '--email', email, '--rate', '0.1')).toContain('is an ambassador');
  await page.reload();
  await page.waitForResponse((r) => r.url().endsWith('/api/v1.0/user'));
  await openUserMenu(page, email);
  await expect(page.getByRole('menuitem', { name: 'Ambassador Program' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'My accounts' }).click();
  await expect(page).toHaveURL(/\/accounts$/);

  // No side menu on Change password either.
  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  await expect(page.locator('.ant-layout-sider')).toHaveCount(0);
});

test('a failed account fetch still opens the overview and shows the error', async ({ page, request }) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Flaky fetch');
  await logIn(page, email, password);
  await page.route('**/api/v1.0/account/details', (route) =>
    route.fulfill({
      status: 503,
      json: { statusCode: 503, message: 'Service briefly unavailable', error: 'Service Unavailable' },
    }),
  );
  await page.getByRole('row', { name: /Flaky fetch/ }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/overview$`));
  await expect(page.locator('.ant-message').getByText('Service briefly unavailable')).toBeVisible();
});

test('nothing is shown until the start-up check ends', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/auth/refresh', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/login');
  await page.waitForTimeout(500);
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toHaveCount(0);
  await expect(page.getByLabel('Email')).toHaveCount(0);
  release();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
});

test('signed out, stale storage is cleared at start and the tabs switch between Login and Sign up', async ({
  page,
}) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('currentAccount', '{"id":"stale"}'));
  await page.reload();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('currentAccount'))).toBeNull();

  await page.getByText('Not a member?').locator('..').getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByLabel('First name')).toBeVisible();
  await page.getByText('Already a member?').locator('..').getByRole('button', { name: 'Login' }).click();
  await expect(page.getByLabel('First name')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
});

test('on a phone the header hides the e-mail and the auth branding is hidden, the product name kept', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/login');
  await expect(page.getByText('Reliable RPC endpoints and token forwarding for ten networks.')).toBeHidden();
  await expect(page.locator('.auth-phone-name')).toBeVisible();
  await expect(page.locator('.auth-phone-name')).toHaveText(/\S/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const { email, password } = await signUpOverApi(request);
  await logIn(page, email, password);
  await expect(page.getByText('My Accounts')).toBeVisible();
  await expect(page.getByText(email, { exact: true })).toBeHidden();
});
