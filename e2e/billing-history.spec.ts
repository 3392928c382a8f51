import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { admin, adminOverHttp, createAccountOverApi, logIn, openSubmenu, signUpOverApi } from './support.ts';

test('operator deposits appear in the Transaction History as Manual deposit, filtered, sorted and paged', async ({
  page,
  request,
}) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Billing account');
  expect(admin('deposit', '--account', accountId, '--amount', '100', '--note', 'launch credit')).toContain(
    'Deposited 100 USD',
  );
  for (let i = 1; i <= 10; i++) {
    await adminOverHttp(
      request,
      'deposit',
      '--account',
      accountId,
      '--amount',
      `0.${String(i).padStart(2, '0')}`,
      '--note',
      `small ${i}`,
    );
  }

  await logIn(page, email, password);
  await page.getByRole('row', { name: /Billing account/ }).click();
  const sider = page.locator('.ant-layout-sider');
  await openSubmenu(sider, 'Billings');
  await sider.getByText('Overview', { exact: true }).last().click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/billings/overview$`));

  // The billing page, not the overview still fading out: 100 + 0.01 + … + 0.10 = 100.55.
  await expect(page.getByRole('button', { name: 'Buy Credits' })).toBeVisible();
  await expect(page.locator('.ant-statistic-content')).toHaveText('100.55');
  await expect(page.getByRole('button', { name: 'Add Card' })).toBeVisible();
  await expect(page.getByText('Posting of transactions and usage may be delayed by up to one day.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Transaction History', selected: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Service Usage History' })).toBeVisible();
  for (const column of ['Transaction ID', 'Transaction Type', 'Amount (USD)', 'Date', 'Receipt']) {
    await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
  }

  // Newest first, 10 per page on the server: 11 deposits make two pages.
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText('Manual deposit');
  await expect(rows.first()).toContainText('+0.10000');
  await expect(rows.first().locator('.amount-positive')).toHaveCSS('color', 'rgb(35, 120, 4)');
  await expect(rows.first()).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await expect(page.locator('.ant-pagination-options')).toHaveCount(0);
  await page.locator('.ant-pagination').getByTitle('2').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('+100.00000');

  // Sorting by amount asks the server: ascending starts at the smallest deposit.
  await page.getByRole('columnheader', { name: 'Amount (USD)' }).click();
  await expect(rows.first()).toContainText('+0.01000');

  // Filtering by a type with no rows empties the table.
  await page.getByRole('columnheader', { name: 'Transaction Type' }).locator('.ant-table-filter-trigger').click();
  await page.locator('.ant-table-filter-dropdown').getByPlaceholder('Search in filters').fill('Welcome');
  await page.locator('.ant-table-filter-dropdown').getByText('Welcome credit').click();
  await page.locator('.ant-table-filter-dropdown').getByRole('button', { name: 'OK' }).click();
  await expect(rows).toHaveCount(0);
});
