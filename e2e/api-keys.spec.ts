import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { createAccountOverApi, expectToastShown, logIn, recordToasts, signUpOverApi } from './support.ts';

const CONFIRM_DEACTIVATE =
  'Confirm to deactivate API key? API key cannot be used to access any services once deactivated.';
const CONFIRM_DELETE =
  'Confirm to delete API key? API key will be permanently deleted and cannot be used to access any services.';

const keyRow = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

async function confirmIn(dialog: Locator, text: string, button: string) {
  await expect(dialog).toBeVisible();
  expect(await dialog.locator('.ant-modal-body').textContent()).toContain(text);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('API keys: create and copy once, rename, deactivate, activate, delete', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await recordToasts(page);
  const { email, password } = await signUpOverApi(request);
  await createAccountOverApi(request, email, password, 'Keys journey');
  await logIn(page, email, password);
  await page.getByRole('row', { name: /Keys journey/ }).click();
  await page.getByRole('menuitem', { name: 'API Keys' }).click();
  await expect(page).toHaveURL(/\/apiKeys$/);
  await expect(page.getByRole('heading', { name: 'API Key Management' })).toBeVisible();

  // Create: the key id and the key, shown once.
  await page.getByRole('button', { name: 'Generate New API Keys' }).click();
  const create = page.getByRole('dialog', { name: 'Create API Key' });
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(create.getByText('API key name is required.', { exact: true })).toBeVisible();
  await create.getByLabel('API Key Name').fill('Journey key');
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  await expectToastShown(page, 'Journey key has been created.');

  const shown = page.getByRole('dialog', { name: 'Your New API Key' });
  await expect(shown.getByText(/displayed only once/)).toBeVisible();
  const keyId = (await shown.getByRole('region', { name: 'API Key ID' }).locator('code').textContent()) ?? '';
  const key = (await shown.getByRole('region', { name: 'API Key', exact: true }).locator('code').textContent()) ?? '';
  expect(keyId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);

  await shown.getByRole('region', { name: 'API Key', exact: true }).getByRole('button', { name: 'Copy' }).click();
  await expectToastShown(page, 'Text has been copied to clipboard.');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  // A click outside does not dismiss it; Done does, and the key is not shown again.
  await page.mouse.click(5, 5);
  await expect(shown).toBeVisible();
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  await expect(page.getByText(key)).toHaveCount(0);

  const row = keyRow(page, 'Journey key');
  await expect(row.getByText('ACTIVE', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Delete' })).toBeDisabled();

  // Rename.
  await row.getByRole('button', { name: 'Edit API key name' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit API Key' });
  await expect(edit.getByLabel('API Key Name')).toHaveValue('Journey key');
  await edit.getByLabel('API Key Name').fill('Journey key renamed');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expectToastShown(page, 'Journey key renamed has been updated.');
  const renamed = keyRow(page, 'Journey key renamed');
  await expect(renamed).toBeVisible();

  // Deactivate asks first; Delete is enabled only now.
  await renamed.getByRole('button', { name: 'Deactivate' }).click();
  await confirmIn(page.getByRole('dialog', { name: 'Deactivate API Key' }), CONFIRM_DEACTIVATE, 'Deactivate');
  // Playwright's text matching folds spaces; the spec's "API  key" has two, so the raw text is compared.
  await expectToastShown(page, 'API  key has been deactivated.');
  await expect(renamed.getByText('INACTIVE', { exact: true })).toBeVisible();
  await expect(renamed.getByRole('button', { name: 'Delete' })).toBeEnabled();

  // Activate asks nothing.
  await renamed.getByRole('button', { name: 'Activate' }).click();
  await expectToastShown(page, 'API key has been activated.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(renamed.getByText('ACTIVE', { exact: true })).toBeVisible();
  await expect(renamed.getByRole('button', { name: 'Delete' })).toBeDisabled();

  await renamed.getByRole('button', { name: 'Deactivate' }).click();
  await confirmIn(page.getByRole('dialog', { name: 'Deactivate API Key' }), CONFIRM_DEACTIVATE, 'Deactivate');
  await expect(renamed.getByText('INACTIVE', { exact: true })).toBeVisible();

  await renamed.getByRole('button', { name: 'Delete' }).click();
  await confirmIn(page.getByRole('dialog', { name: 'Delete API Key' }), CONFIRM_DELETE, 'Delete');
  await expectToastShown(page, 'API key has been deleted.');
  await expect(renamed).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'API Key Management' })).toBeVisible();
  await expect(page.getByText('Journey key renamed')).toHaveCount(0);
});
