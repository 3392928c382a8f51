import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { admin, createAccountOverApi, logIn, signUpOverApi } from './support.ts';

/** A local calendar day, `back` days before today, as the pickers show it (YYYY-MM-DD). */
function dayBefore(back: number): string {
  const day = new Date();
  day.setDate(day.getDate() - back);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

const card = (page: Page, title: string) =>
  page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });

const figure = (page: Page, title: string) => card(page, title).locator('.ant-statistic-content-value');

test('the account overview shows the credits, this month’s bill and calls, and two charts with their own ranges', async ({
  page,
  request,
}) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Overview account');
  expect(admin('deposit', '--account', accountId, '--amount', '25', '--note', 'overview credit')).toContain(
    'Deposited 25 USD',
  );

  await logIn(page, email, password);
  await page.getByRole('row', { name: /Overview account/ }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/overview$`));

  await expect(figure(page, 'Available Credits (USD)')).toHaveText('25.00');
  await expect(figure(page, 'Monthly Bill')).toHaveText('0.00');
  await expect(card(page, 'Monthly Bill').locator('.ant-statistic-content-suffix')).toHaveText('USD');
  await expect(figure(page, 'Monthly API Calls')).toHaveText('0');

  // Both charts draw on a canvas, each over the last 7 days up to today.
  const week = [dayBefore(6), dayBefore(0)];
  for (const title of ['Account Billing', 'Service Usage']) {
    await expect(card(page, title).locator('canvas').first()).toBeVisible();
    const inputs = card(page, title).locator('.ant-picker input');
    await expect(inputs.nth(0)).toHaveValue(week[0] as string);
    await expect(inputs.nth(1)).toHaveValue(week[1] as string);
  }

  // The Last 30 Days preset changes that chart's range (and asks the server for it); the other keeps its own.
  const monthAgo = dayBefore(29);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1.0/usage/api/billing?')) asked.push(r.url());
  });
  const service = card(page, 'Service Usage');
  await service.locator('.ant-picker input').first().click();
  const presets = page.locator('.ant-picker-dropdown:visible .ant-picker-presets');
  for (const label of ['Last 7 Days', 'Last 14 Days', 'Last 30 Days', 'Last 90 Days', 'Last 180 Days']) {
    await expect(presets.getByText(label, { exact: true })).toBeVisible();
  }
  // A loaded machine can lose a click on the opening dropdown: choosing the preset again is harmless.
  await expect(async () => {
    if (!(await presets.isVisible())) await service.locator('.ant-picker input').first().click();
    await presets.getByText('Last 30 Days', { exact: true }).click({ timeout: 3000 });
    await expect(service.locator('.ant-picker input').nth(0)).toHaveValue(monthAgo, { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect.poll(() => asked.some((url) => url.includes(`dateStart=${monthAgo}`))).toBe(true);
  await expect(service.locator('.ant-picker input').nth(1)).toHaveValue(dayBefore(0));
  await expect(service.locator('canvas').first()).toBeVisible();
  await expect(card(page, 'Account Billing').locator('.ant-picker input').first()).toHaveValue(week[0] as string);
});
