import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { admin, expectToastShown, logIn, recordToasts, signUpOverApi } from './support.ts';

const WELCOME = 'Add my one-time welcome credit of 10 USD to this account';

/** Step 1 of /accounts/create: the name, then Next. */
async function nameStep(page: Page, name: string) {
  await page.goto('/accounts');
  await page.getByRole('button', { name: 'Create new account' }).click();
  await expect(page).toHaveURL(/\/accounts\/create$/);
  await page.getByLabel('Account name').fill(name);
}

/** The payment step has its setup intent once Create is enabled. */
const paymentStep = async (page: Page) => {
  await expect(page.getByRole('button', { name: 'Create' })).toBeEnabled();
};

async function enterCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('CVC').fill('123');
}

test('the creation wizard: a card and the welcome credit, then Skip, a bad name, an abandoned draft', async ({
  page,
  request,
}) => {
  await recordToasts(page);
  const { email, password } = await signUpOverApi(request);
  await logIn(page, email, password);

  // First account: a card and the welcome credit.
  await nameStep(page, 'Wizard main');
  await expect(page.getByRole('checkbox', { name: WELCOME })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await paymentStep(page);
  await expect(page.locator('.ant-steps-item').nth(1)).toContainText('Optional');
  await enterCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Create' }).click();
  await expectToastShown(page, 'Wizard main has been created.');
  await expect(page.getByText('Congratulations').last()).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  const row = page.getByRole('row', { name: /Wizard main/ });
  await expect(row).toContainText('ACTIVE');

  // Its history holds the 10 USD welcome credit, and its card is there.
  await row.click();
  await expect(page).toHaveURL(/\/account\/[^/]+\/overview$/);
  const accountId = /\/account\/([^/]+)\/overview$/.exec(page.url())?.[1] ?? '';
  await page.goto(`/account/${accountId}/billings/overview`);
  const history = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText('Welcome credit');
  await expect(history.first()).toContainText('+10.00000');
  await page.goto(`/account/${accountId}/billings/addPaymentCard`);
  await expect(page.locator('.card-tile').filter({ hasText: '4242' })).toBeVisible();

  // Second account: no welcome credit offered any more, and Skip.
  await nameStep(page, 'Wizard skipped');
  await expect(page.getByRole('checkbox', { name: WELCOME })).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();
  await paymentStep(page);
  await page.getByRole('button', { name: 'Skip' }).click();
  await expectToastShown(page, 'Wizard skipped has been created.');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /Wizard skipped/ })).toContainText('SUSPENDED');

  // A bad name never leaves step 1.
  await nameStep(page, 'semi;colon');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Invalid account name')).toBeVisible();

  // An abandoned wizard leaves no visible account.
  await page.getByLabel('Account name').fill('Abandoned');
  await page.getByRole('button', { name: 'Next' }).click();
  await paymentStep(page);
  await page.goto('/accounts');
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(2);
  await expect(page.getByText('ACCOUNT_CREATION')).toHaveCount(0);
  await expect(page.getByText('Abandoned')).toHaveCount(0);
});

test('the eleventh account is refused with "Accounts has reached the limit 10."', async ({ page, request }) => {
  await recordToasts(page);
  const { email, password } = await signUpOverApi(request);
  const signIn = await request.post('/auth/sign-in', { data: { email, password } });
  const { idToken } = (await signIn.json()).data as { idToken: string };
  for (let i = 1; i <= 10; i++) {
    const created = await request.post('/api/v1.0/account', {
      data: { accountName: `Limit ${i}` },
      headers: { authorization: `Bearer ${idToken}`, 'ebs-account-id': '' },
    });
    expect(created.status()).toBe(200);
  }
  await logIn(page, email, password);
  await nameStep(page, 'Eleventh');
  await page.getByRole('button', { name: 'Next' }).click();
  await expectToastShown(page, 'Accounts has reached the limit 10.');
  await expect(page).toHaveURL(/\/accounts$/);
});

test('with ADD_PAYMENT_CARD mandatory the payment step has no Skip and is not Optional', async ({ page, request }) => {
  await recordToasts(page);
  const { email, password } = await signUpOverApi(request);
  admin('setting', 'set', 'ADD_PAYMENT_CARD', '--json', '{"mandatory":true}');
  try {
    await logIn(page, email, password);
    await nameStep(page, 'Must pay');
    await page.getByRole('button', { name: 'Next' }).click();
    await paymentStep(page);
    await expect(page.getByRole('button', { name: 'Skip' })).toHaveCount(0);
    await expect(page.locator('.ant-steps-item').nth(1)).not.toContainText('Optional');
    await enterCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Create' }).click();
    await expectToastShown(page, 'Must pay has been created.');
  } finally {
    admin('setting', 'set', 'ADD_PAYMENT_CARD', '--json', '{"mandatory":false}');
  }
});
