import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { createAccountOverApi, expectToastShown, logIn, recordToasts, signUpOverApi } from './support.ts';

/** Opens the Add Payment Method dialog and enters a card, as a person would. */
async function addCard(page: Page, number: string) {
  await page.getByRole('button', { name: 'Add Card' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Payment Method' });
  await expect(
    dialog.getByText(
      'Your card will only be charged when auto payments are set up or a one-time payment is confirmed.',
    ),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add' })).toBeEnabled();
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiry').fill('12/30');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: 'Add' }).click();
  return dialog;
}

const tile = (page: Page, last4: string) => page.locator('.card-tile').filter({ hasText: last4 });
/** Opens a card's settings menu once any earlier menu has finished closing. */
async function openCardMenu(page: Page, last4: string) {
  await expect(page.locator('.ant-dropdown:visible')).toHaveCount(0);
  await tile(page, last4).getByRole('button', { name: 'Card settings' }).click();
  await expect(page.locator('.ant-dropdown:visible')).toHaveCount(1);
}
/** An entry of the open card settings menu (closed menus stay in the page, hidden). */
const menuItem = (page: Page, name: string) => page.locator('.ant-dropdown:visible').getByRole('menuitem', { name });

test('cards: add, set as default, edit expiry, removal rules, decline and challenge', async ({ page, request }) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Card account');
  await recordToasts(page);
  await logIn(page, email, password);
  await page.getByRole('row', { name: /Card account/ }).click();
  await page.goto(`/account/${accountId}/billings/addPaymentCard`);

  await addCard(page, '4242 4242 4242 4242');
  await expectToastShown(page, 'Payment card added.');
  await expect(tile(page, '4242')).toContainText('Default');
  const box = await tile(page, '4242').boundingBox();
  expect([Math.round(box?.width ?? 0), Math.round(box?.height ?? 0)]).toEqual([300, 176]);

  await addCard(page, '5555 5555 5555 4444');
  await expect(tile(page, '4444')).toBeVisible();
  await expect(tile(page, '4444')).not.toContainText('Default');

  // Set as default is disabled on the default card; on the other it moves the Default tag.
  await openCardMenu(page, '4242');
  await expect(menuItem(page, 'Set as default')).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  await openCardMenu(page, '4444');
  await menuItem(page, 'Set as default').click();
  await expectToastShown(page, 'Payment card has been set as default.');
  await expect(tile(page, '4444')).toContainText('Default');
  await expect(tile(page, '4242')).not.toContainText('Default');

  // Edit the expiry.
  await tile(page, '4242').getByRole('button', { name: 'Edit card' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Card' });
  const select = (label: string) =>
    edit.locator('.ant-form-item').filter({ hasText: label }).locator('.ant-select-selector');
  await select('Month').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="11"]').click();
  await select('Year').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="2029"]').click();
  await edit.getByRole('button', { name: 'Update' }).click();
  await expectToastShown(page, 'Payment card updated.');
  await expect(tile(page, '4242')).toContainText('11/2029');

  // The default card cannot be removed; another one can.
  // Refused, so trying again is harmless: on a loaded machine the menu's first click can land
  // while the dropdown is still opening.
  await expect(async () => {
    await openCardMenu(page, '4444');
    await menuItem(page, 'Remove').click();
    await expectToastShown(
      page,
      'Cannot delete default payment card, please add another default card before deletion.',
      { timeout: 3_000 },
    );
  }).toPass({ timeout: 30_000 });
  await openCardMenu(page, '4242');
  await menuItem(page, 'Remove').click();
  await page.getByRole('dialog', { name: 'Remove Payment Method' }).getByRole('button', { name: 'Remove' }).click();
  await expectToastShown(page, 'Payment card has been removed.');
  await expect(tile(page, '4242')).toHaveCount(0);

  // Now the only card cannot be removed.
  await openCardMenu(page, '4444');
  await menuItem(page, 'Remove').click();
  await expectToastShown(page, 'Please add a payment card to proceed.');

  // A declined card shows the processor's message and adds nothing.
  const declined = await addCard(page, '4000 0000 0000 0002');
  await expectToastShown(page, 'Your card was declined.');
  await declined.getByRole('button', { name: 'Cancel' }).click();
  await expect(tile(page, '0002')).toHaveCount(0);

  // The challenge card asks for a confirmation in a dialog, then is added.
  await addCard(page, '4000 0027 6000 3184');
  const challenge = page.getByRole('dialog', { name: 'Confirm your card' });
  await expect(challenge.getByText('Your bank asks you to confirm this card.')).toBeVisible();
  // Shown as the user sees it: its opening zoom over (a click while it still grows can miss the button).
  await expect(challenge).not.toHaveClass(/ant-zoom-(appear|enter)/);
  await challenge.getByRole('button', { name: 'Complete' }).click();
  await expectToastShown(page, 'Payment card added.');
  await expect(tile(page, '3184')).toBeVisible();
});

test('buy credits: the confirmation, the payment, its receipt; auto pay on, saved, off', async ({ page, request }) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Paying account');
  await recordToasts(page);
  await logIn(page, email, password);
  await page.getByRole('row', { name: /Paying account/ }).click();
  // A new account has no credit yet: it is suspended until the first deposit.
  const suspendedBar = page.getByText('This account has been suspended due to an insufficient balance');
  await expect(suspendedBar).toBeVisible();
  await page.goto(`/account/${accountId}/billings/addPaymentCard`);
  await addCard(page, '4242 4242 4242 4242');
  await expectToastShown(page, 'Payment card added.');

  await page.goto(`/account/${accountId}/billings/buyCredits`);
  const oneTime = page.locator('.ant-card').filter({ hasText: 'Make One Time Pay' });
  // Typed with cents, as a person would: the separator and its cents are refused, never dollars.
  await oneTime.getByLabel('Amount (USD)').click();
  await page.keyboard.type('12.50');
  await expect(oneTime.getByText('Whole US dollars only.')).toBeVisible();
  await expect(oneTime.getByLabel('Amount (USD)')).toHaveValue(/^\$\s?12$/);
  await oneTime.getByLabel('Amount (USD)').fill('2500');
  await expect(oneTime.getByLabel('Amount (USD)')).toHaveValue(/\$\s?2,500/);
  await oneTime.getByLabel('Amount (USD)').fill('25');
  await oneTime.getByRole('button', { name: 'Pay' }).click();
  const confirm = page.getByRole('dialog', { name: '$25.00 USD' });
  await expect(confirm).toContainText('4242');
  await expect(confirm).toContainText('Default');
  await expect(confirm).toContainText('December 2030');
  await confirm.getByRole('button', { name: 'Deposit' }).click();
  await expectToastShown(page, 'Your payment is being processed. Thanks for using the product!');
  await expect(suspendedBar).toHaveCount(0);

  await page.goto(`/account/${accountId}/billings/overview`);
  const row = page.locator('.ant-table-tbody tr.ant-table-row').first();
  await expect(row).toContainText('One-time deposit');
  await expect(row).toContainText('+25.00000');
  const receipt = row.getByRole('link', { name: 'Open' });
  await expect(receipt).toHaveAttribute('target', '_blank');
  const receiptPage = await request.get((await receipt.getAttribute('href')) ?? '');
  expect(receiptPage.status()).toBe(200);
  expect(await receiptPage.text()).toContain('$25.00');
  await expect(page.locator('.ant-statistic-content').first()).toHaveText('25.00');
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^receipt-[0-9a-f]{8}\.pdf$/);
  const file = readFileSync((await download.path()) ?? '');
  expect(file.subarray(0, 5).toString()).toBe('%PDF-');

  await page.goto(`/account/${accountId}/billings/buyCredits`);
  const autoPay = page.locator('.ant-card').filter({ hasText: 'Save Auto Pay' });
  await autoPay.getByRole('switch', { name: 'Auto Pay' }).click();
  await expectToastShown(page, 'Thanks for enabling auto pay.');
  await autoPay.getByLabel('Threshold (USD)').fill('20');
  await autoPay.getByLabel('Amount (USD)').fill('50');
  await autoPay.getByRole('button', { name: 'Save Auto Pay' }).click();
  await expectToastShown(page, 'Your auto pay setting has been saved.');
  await autoPay.getByRole('switch', { name: 'Auto Pay' }).click();
  await expectToastShown(page, 'Your auto pay has been turned off.');
});

test('an account with no card gets the non-closable no-card modal when buying credits', async ({ page, request }) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Cardless account');
  await recordToasts(page);
  await logIn(page, email, password);
  await page.getByRole('row', { name: /Cardless account/ }).click();
  await page.goto(`/account/${accountId}/billings/buyCredits`);
  const oneTime = page.locator('.ant-card').filter({ hasText: 'Make One Time Pay' });
  await oneTime.getByLabel('Amount (USD)').fill('10');
  await oneTime.getByRole('button', { name: 'Pay' }).click();
  const modal = page.getByRole('dialog').filter({ hasText: 'This account does not have a payment card.' });
  await expect(modal).toBeVisible();
  await expect(modal.locator('.ant-modal-close')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Add' }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/billings/addPaymentCard$`));
});

test('a card with insufficient funds shows the processor message, posts nothing and the account stays suspended', async ({
  page,
  request,
}) => {
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Short account');
  await recordToasts(page);
  await logIn(page, email, password);
  await page.getByRole('row', { name: /Short account/ }).click();
  await page.goto(`/account/${accountId}/billings/addPaymentCard`);
  await addCard(page, '4000 0000 0000 9995');
  await expectToastShown(page, 'Payment card added.');

  await page.goto(`/account/${accountId}/billings/buyCredits`);
  const oneTime = page.locator('.ant-card').filter({ hasText: 'Make One Time Pay' });
  await oneTime.getByLabel('Amount (USD)').fill('30');
  await oneTime.getByRole('button', { name: 'Pay' }).click();
  await page.getByRole('dialog', { name: '$30.00 USD' }).getByRole('button', { name: 'Deposit' }).click();
  await expectToastShown(page, 'Your card has insufficient funds.');

  await page.goto(`/account/${accountId}/billings/overview`);
  await expect(page.locator('.ant-statistic-content').first()).toHaveText('0.00');
  await expect(page.locator('.ant-table-tbody .ant-empty')).toBeVisible();
  await expect(page.getByText('This account has been suspended due to an insufficient balance')).toBeVisible();
});
