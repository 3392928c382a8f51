import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { expectVisibleFocus, tabTo } from './focus.ts';
import { createAccountOverApi, expectToastShown, recordToasts, signUpOverApi } from './support.ts';

test.use({ viewport: { width: 1440, height: 900 } });

/** Tabs to `target`, checks that it shows its focus, and presses `key` on it. */
async function operate(
  page: Page,
  target: Locator,
  key: 'Enter' | 'Space' = 'Enter',
  options: Parameters<typeof tabTo>[2] = {},
) {
  await tabTo(page, target, options);
  await expectVisibleFocus(target);
  await page.keyboard.press(key);
}

/** Presses an arrow key (in a menu) until `target` has the focus, at most `max` times. */
async function arrowTo(page: Page, target: Locator, key: 'ArrowDown' | 'ArrowUp', max = 6) {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement)); i++) {
    const before = await page.evaluateHandle(() => document.activeElement);
    await page.keyboard.press(key);
    // The menu moves the focus on the next frame: the next press waits for it.
    await expect.poll(() => before.evaluate((previous) => document.activeElement !== previous)).toBe(true);
  }
  await expect(target).toBeFocused();
}

test('keyboard only: sign in, open the account, create an API key, add a card and buy credits', async ({
  page,
  request,
}) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Keyboard journey');
  await recordToasts(page);
  await page.goto('/login');

  // Sign in: type into the fields, submit with Enter from the password.
  await tabTo(page, page.getByLabel('Email'));
  await expectVisibleFocus(page.getByLabel('Email'));
  await page.keyboard.type(email);
  const passwordField = page.getByLabel('Password', { exact: true });
  await tabTo(page, passwordField);
  await page.keyboard.type(password);
  await expectVisibleFocus(passwordField);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/accounts$/);
  await expectToastShown(page, 'Welcome back!');

  // The accounts list: a row opens its account.
  await operate(page, page.getByRole('row', { name: /Keyboard journey/ }));
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/overview$`));

  // The side menu's API Keys.
  const menu = page.getByRole('menu');
  await operate(page, menu.getByRole('link', { name: 'API Keys' }));
  await expect(page.getByRole('heading', { name: 'API Key Management' })).toBeVisible();

  // Create a key: the dialog's name field has the focus; Create submits it.
  await operate(page, page.getByRole('button', { name: 'Generate New API Keys' }), 'Space');
  const create = page.getByRole('dialog', { name: 'Create API Key' });
  await expect(create.getByLabel('API Key Name')).toBeFocused();
  await page.keyboard.type('Keyboard key');
  await operate(page, create.getByRole('button', { name: 'Create', exact: true }));
  await expectToastShown(page, 'Keyboard key has been created.');
  const shown = page.getByRole('dialog', { name: 'Your New API Key' });
  await expect(shown.getByText(/displayed only once/)).toBeVisible();
  await operate(page, shown.getByRole('button', { name: 'Done' }));
  await expect(shown).toBeHidden();
  const row = page.getByRole('row').filter({ has: page.getByText('Keyboard key', { exact: true }) });
  await expect(row.getByText('ACTIVE', { exact: true })).toBeVisible();

  // Back to the side menu; its collapsed Billings opens with Enter, the arrows walk into it.
  await tabTo(page, menu.getByRole('link', { name: 'API Keys' }), { backwards: true, max: 30 });
  await page.keyboard.press('ArrowDown');
  const billings = menu.getByRole('menuitem', { name: 'Billings' });
  await expectVisibleFocus(billings);
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('link', { name: 'Add Payment Cards' })).toBeVisible();
  await arrowTo(page, menu.getByRole('link', { name: 'Add Payment Cards' }), 'ArrowDown');
  await expectVisibleFocus(menu.getByRole('link', { name: 'Add Payment Cards' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/billings/addPaymentCard$`));

  // Add a card: the add tile opens the dialog, the fields are typed into, Add confirms.
  await operate(page, page.getByRole('button', { name: 'Add Card' }));
  const addCard = page.getByRole('dialog', { name: 'Add Payment Method' });
  await expect(addCard.getByRole('button', { name: 'Add', exact: true })).toBeEnabled();
  await tabTo(page, addCard.getByLabel('Card number'));
  await page.keyboard.type('4242 4242 4242 4242');
  await tabTo(page, addCard.getByLabel('Expiry'), { max: 1 });
  await page.keyboard.type('12/30');
  await tabTo(page, addCard.getByLabel('CVC'), { max: 1 });
  await page.keyboard.type('123');
  await operate(page, addCard.getByRole('button', { name: 'Add', exact: true }));
  await expectToastShown(page, 'Payment card added.');
  await expect(addCard).toBeHidden();
  await expect(page.locator('.card-tile').filter({ hasText: '4242' })).toContainText('Default');

  // Buy Credits, one entry up in the menu.
  await tabTo(page, menu.getByRole('link', { name: 'Add Payment Cards' }), { backwards: true, max: 30 });
  await arrowTo(page, menu.getByRole('link', { name: 'Buy Credits' }), 'ArrowUp');
  await expectVisibleFocus(menu.getByRole('link', { name: 'Buy Credits' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/billings/buyCredits$`));
  const suspendedBar = page.getByText('This account has been suspended due to an insufficient balance');
  await expect(suspendedBar).toBeVisible();

  // Pay 25 USD with the default card, confirmed in the dialog titled with the amount.
  const oneTime = page.locator('.ant-card').filter({ hasText: 'Make One Time Pay' });
  await tabTo(page, oneTime.getByLabel('Amount (USD)'));
  await page.keyboard.type('25');
  await expect(oneTime.getByLabel('Amount (USD)')).toHaveValue(/\$\s?25$/);
  await operate(page, oneTime.getByRole('button', { name: 'Pay' }), 'Space');
  const confirm = page.getByRole('dialog', { name: '$25.00 USD' });
  await expect(confirm).toContainText('4242');
  await expect(confirm).toContainText('Default');
  await expect(confirm).toContainText('December 2030');
  await operate(page, confirm.getByRole('button', { name: 'Deposit' }));
  await expectToastShown(page, 'Your payment is being processed. Thanks for using the product!');
  await expect(confirm).toBeHidden();
  await expect(suspendedBar).toHaveCount(0);

  // The balance, on the Billings overview.
  await tabTo(page, menu.getByRole('link', { name: 'Buy Credits' }), { backwards: true, max: 30 });
  const billingOverview = menu.getByRole('menuitem', { name: 'Billings' }).locator('..').getByRole('link', {
    name: 'Overview',
  });
  await arrowTo(page, billingOverview, 'ArrowUp');
  await expectVisibleFocus(billingOverview);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/billings/overview$`));
  const credits = page.locator('.ant-card').filter({ hasText: 'Available Credits (USD)' });
  await expect(credits.locator('.ant-statistic-content')).toHaveText('25.00');
});
