import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import {
  createAccountOverApi,
  expectToastShown,
  logIn,
  mailedCode,
  recordToasts,
  signUpOverApi,
  uniqueEmail,
} from './support.ts';

/** An identity token of a user, from the identity API, for calls that bypass the page. */
async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  const signIn = await request.post('/auth/sign-in', { data: { email, password } });
  expect(signIn.status()).toBe(200);
  return ((await signIn.json()).data as { idToken: string }).idToken;
}

/** Calls the API as that user would without the page: their token, the account in ebs-account-id. */
async function callAs(
  request: APIRequestContext,
  token: string,
  accountId: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  data?: unknown,
) {
  const response = await request.fetch(path, {
    method,
    data,
    headers: { authorization: `Bearer ${token}`, 'ebs-account-id': accountId },
  });
  return { status: response.status(), body: (await response.json()) as { message: string; data: unknown } };
}

/** Opens an account from My Accounts, then its Settings from the side menu. */
async function openSettings(page: Page, accountName: string) {
  await page.getByRole('row', { name: new RegExp(accountName) }).click();
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.locator('.account-breadcrumb')).toContainText('Settings');
}

const accessRow = (page: Page, email: string) =>
  page
    .locator('.settings-card')
    .filter({ hasText: 'Account Access' })
    .getByRole('row', { name: new RegExp(email) });

async function addUser(page: Page, email: string) {
  await page.getByRole('button', { name: 'Add User to Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('User email').fill(email);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expectToastShown(page, `${email} has been added to this account.`);
  await expect(dialog).toBeHidden();
}

/** A second person in their own browser context, so the two sessions do not mix. */
async function secondPerson(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await recordToasts(page);
  return { page, close: () => context.close() };
}

test('the owner renames the account, reveals its signing secret and rotates it', async ({ page, request }) => {
  await recordToasts(page);
  const { email, password } = await signUpOverApi(request);
  await createAccountOverApi(request, email, password, 'Before rename');
  await logIn(page, email, password);
  await openSettings(page, 'Before rename');

  const info = page.locator('.settings-card').filter({ hasText: 'Account Information' });
  await expect(info.getByText(email, { exact: true })).toBeVisible();
  await expect(info.getByText(/^\d{4}-\d{2}-\d{2}$/)).toBeVisible();
  await expect(info.locator('tr').filter({ hasText: 'User Roles' })).toHaveText(/^User Roles\s*Owner$/);

  await info.getByRole('button', { name: 'Edit account name' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Account Name' });
  await edit.getByLabel('Account name').fill('bad;name');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('Invalid account name', { exact: true })).toBeVisible();
  await edit.getByLabel('Account name').fill('After rename');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToastShown(page, 'After rename has been updated.');
  await expect(info.getByTestId('account-name')).toHaveText('After rename');
  await expect(page.locator('.account-breadcrumb')).toContainText('After rename');

  await expect(info.getByText(/whsec_/)).toHaveCount(0);
  await info.getByRole('button', { name: 'Reveal' }).click();
  const secret = info.getByTestId('signing-secret');
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const shown = await secret.textContent();
  await info.getByRole('button', { name: 'Hide' }).click();
  await info.getByRole('button', { name: 'Reveal' }).click();
  await expect(secret).toHaveText(shown ?? '');

  await info.getByRole('button', { name: 'Rotate' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
  await rotate.getByRole('button', { name: 'Rotate' }).click();
  await expectToastShown(
    page,
    'The signing secret has been rotated. For 24 hours, webhooks are signed with both the new and the previous secret.',
  );
  await expect(rotate).toBeHidden();
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await expect(secret).not.toHaveText(shown ?? '');
  await expect(info.getByText(/^The previous secret also signs webhooks until \d{4}-\d{2}-\d{2} /)).toBeVisible();
});

test('an added user sees and opens the account; once removed, the server refuses them', async ({
  page,
  request,
  browser,
}) => {
  await recordToasts(page);
  const owner = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, owner.email, owner.password, 'Shared account');
  const member = await signUpOverApi(request);

  await logIn(page, owner.email, owner.password);
  await openSettings(page, 'Shared account');
  await expect(accessRow(page, owner.email).getByRole('button', { name: 'Remove' })).toHaveCount(0);
  await addUser(page, member.email);
  // Invited like an address without a user, so the owner cannot tell who has signed up.
  await expect(accessRow(page, member.email)).toContainText('INVITED');

  const other = await secondPerson(browser);
  await logIn(other.page, member.email, member.password);
  await expect(other.page.getByRole('row', { name: /Shared account/ })).toContainText('MEMBER');
  await page.reload();
  await expect(accessRow(page, member.email)).toContainText('MEMBER');
  await expect(accessRow(page, member.email)).toContainText('Jo Urney');
  await other.page.getByRole('row', { name: /Shared account/ }).click();
  await expect(other.page).toHaveURL(`/account/${accountId}/overview`);

  await accessRow(page, member.email).getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Removing this user from account' });
  await expect(confirm.getByText('The user will no long access to this account.', { exact: true })).toBeVisible();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expectToastShown(page, 'User has been removed from this account.');
  await expect(accessRow(page, member.email)).toHaveCount(0);

  const token = await tokenOf(request, member.email, member.password);
  const refused = await callAs(request, token, accountId, 'GET', '/api/v1.0/account/details');
  expect(refused.status).toBe(403);
  expect(refused.body.message).toBe('You do not have access to this account.');
  await other.page.reload();
  await expectToastShown(other.page, 'You do not have access to this account.');
  await other.page.goto('/accounts');
  await expect(other.page.getByRole('row', { name: /Shared account/ })).toHaveCount(0);
  await other.close();
});

test('an invited e-mail is mailed a sign-up link and joins the account by signing up', async ({
  page,
  request,
  browser,
}) => {
  await recordToasts(page);
  const owner = await signUpOverApi(request);
  await createAccountOverApi(request, owner.email, owner.password, 'Inviting account');
  const invited = uniqueEmail('invited');

  await logIn(page, owner.email, owner.password);
  await openSettings(page, 'Inviting account');
  await page.getByRole('button', { name: 'Add User to Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('User email is required.', { exact: true })).toBeVisible();
  await dialog.getByLabel('User email').fill(`  ${invited}`);
  await expect(dialog.getByLabel('User email')).toHaveValue(invited);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expectToastShown(page, `${invited} has been added to this account.`);
  await expect(accessRow(page, invited)).toContainText('INVITED');

  const mails = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(invited)}`)).json()) as Array<{
    subject: string;
    text: string;
  }>;
  expect(mails[0]?.subject).toContain('You are invited to "Inviting account"');
  const link = mails[0]?.text.match(/https?:\/\/\S+\/sign-up/)?.[0];
  expect(link).toBeTruthy();

  const other = await secondPerson(browser);
  await other.page.goto(new URL(link ?? '').pathname);
  await other.page.getByLabel('First name').fill('Ivy');
  await other.page.getByLabel('Last name').fill('Invited');
  await other.page.getByLabel('Email').fill(invited);
  await other.page.getByLabel('Password', { exact: true }).fill('invited pass 1');
  await other.page.getByLabel('Confirm password').fill('invited pass 1');
  await other.page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await other.page.getByLabel('Verification code').fill(await mailedCode(request, invited));
  await other.page.getByRole('button', { name: 'Verify' }).click();
  await expect(other.page).toHaveURL(/\/accounts$/);
  await expect(other.page.getByRole('row', { name: /Inviting account/ })).toContainText('MEMBER');
  await other.close();

  await page.reload();
  await expect(accessRow(page, invited)).toContainText('MEMBER');
  await expect(accessRow(page, invited)).toContainText('Ivy Invited');
});

test('a MEMBER is offered no access changes, and the server refuses them over the API', async ({ page, request }) => {
  const owner = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, owner.email, owner.password, 'Members only');
  const member = await signUpOverApi(request);
  const ownerToken = await tokenOf(request, owner.email, owner.password);
  expect(
    (await callAs(request, ownerToken, accountId, 'POST', '/api/v1.0/account/user', { email: member.email })).status,
  ).toBe(200);

  await logIn(page, member.email, member.password);
  await openSettings(page, 'Members only');
  await expect(page.getByText('Only the owner of this account can rename it and add or remove users.')).toBeVisible();
  await expect(accessRow(page, owner.email)).toContainText('OWNER');
  await expect(page.getByRole('button', { name: 'Add User to Account' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit account name' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Rotate' })).toHaveCount(0);
  // The signing secret can sign the account's webhooks: the owner's only.
  await expect(page.getByText('Only the owner of this account can reveal the signing secret.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reveal' })).toHaveCount(0);

  const token = await tokenOf(request, member.email, member.password);
  const details = await callAs(request, token, accountId, 'GET', '/api/v1.0/account/details');
  const ownerId = (details.body.data as { userRoles: Array<{ id: string; roleName: string }> }).userRoles.find(
    (r) => r.roleName === 'OWNER',
  )?.id;
  const attempts = [
    await callAs(request, token, accountId, 'POST', '/api/v1.0/account/user', { email: uniqueEmail() }),
    await callAs(request, token, accountId, 'DELETE', `/api/v1.0/account/${ownerId}`),
  ];
  for (const attempt of attempts) {
    expect(attempt.status).toBe(403);
    expect(attempt.body.message).toBe('Only the owner of this account can add or remove users.');
  }
  const rename = await callAs(request, token, accountId, 'POST', '/api/v1.0/account/updateAccountName', {
    accountName: 'Taken over',
  });
  expect(rename.status).toBe(403);
  expect(rename.body.message).toBe('Only the owner of this account can rename it.');
  const rotation = await callAs(request, token, accountId, 'POST', '/api/v1.0/account/signing-secret/rotate');
  expect(rotation.status).toBe(403);
  expect(rotation.body.message).toBe('Only the owner of this account can rotate the signing secret.');
  const reveal = await callAs(request, token, accountId, 'GET', '/api/v1.0/account/signing-secret');
  expect(reveal.status).toBe(403);
  expect(reveal.body.message).toBe('Only the owner of this account can reveal the signing secret.');
  await page.reload();
  await expect(accessRow(page, owner.email)).toBeVisible();
  await expect(page.getByTestId('account-name')).toHaveText('Members only');
});
