import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import {
  createAccountOverApi,
  expectToastShown,
  mailedCode,
  openUserMenu,
  recordToasts,
  uniqueEmail,
} from './support.ts';

const fieldError = (page: import('@playwright/test').Page, text: string) =>
  page.locator('.ant-form-item-explain-error').getByText(text, { exact: true });

test('a new user signs up, verifies, opens an account, signs out and in, resets and changes the password', async ({
  page,
  request,
}) => {
  await recordToasts(page);
  // Sign-up, two sign-ins, a reset and a change, each with its password hash: past 90 s beside
  // another journey on two cores.
  test.setTimeout(180_000);
  const email = uniqueEmail();
  const password = 'first secret 1';

  // Sign up: every validation message first, then a real sign-up.
  await page.goto('/sign-up');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  for (const message of [
    'First name is required.',
    'Last name is required.',
    'Email is required.',
    'Password is required.',
  ]) {
    await expect(fieldError(page, message)).toBeVisible();
  }
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(` ${email.toUpperCase()}`);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill('something else 1');
  await page.getByLabel('Referral code').fill('NOSUCHCODE');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(fieldError(page, 'Passwords do not match.')).toBeVisible();
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(fieldError(page, 'Referral code does not exist.')).toBeVisible();
  await page.getByLabel('Referral code').fill('');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();

  // Verification with the code from the dev outbox.
  await expect(page.getByRole('heading', { name: 'Email Validation' })).toBeVisible();
  await expect(page.getByText('A verification code has been sent to your email.')).toBeVisible();
  const countdown = page.getByText(/Re-send code in \d+s/);
  await expect(countdown).toBeVisible();
  const seconds = async () => Number((await countdown.textContent())?.match(/in (\d+)s/)?.[1]);
  const first = await seconds();
  expect(first).toBeLessThanOrEqual(60);
  await expect.poll(seconds, { timeout: 3000 }).toBeLessThan(first);
  await expect(page.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(fieldError(page, 'Verification code is required.')).toBeVisible();
  await page.getByLabel('Verification code').fill(await mailedCode(request, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expectToastShown(page, 'Welcome! Your e-mail is verified.');

  // An account created over the API appears in the table with its four columns.
  const accountId = await createAccountOverApi(request, email, password, 'Journey account');
  await page.reload();
  for (const column of ['Account name', 'Account ID', 'Status', 'Role']) {
    await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
  }
  const row = page.getByRole('row', { name: /Journey account/ });
  await expect(row).toContainText(`...${accountId.slice(-12)}`);
  // No credit yet, so the account is suspended until its first deposit.
  await expect(row).toContainText('SUSPENDED');
  await expect(row).toContainText('OWNER');
  await expect(row).not.toContainText(accountId);

  // Opening it shows the account layout with its side menu.
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/overview$`));
  const menu = page.getByRole('menu').first();
  for (const entry of ['Overview', 'Services', 'API Keys', 'Billings', 'Settings', 'Documentation', 'Contact Us']) {
    await expect(menu.getByText(entry, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText('Available Credits (USD)')).toBeVisible();

  // Sign out: signed out, /accounts shows Login.
  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  await page.goto('/accounts');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();

  // Log in: the login form's own messages, then a welcome.
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(fieldError(page, 'Email is required.')).toBeVisible();
  await expect(fieldError(page, 'Password is required.')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expectToastShown(page, 'Welcome back!');

  // A reload keeps the session (the identity token is renewed from the httpOnly cookie).
  await page.reload();
  await expect(page.getByRole('row', { name: /Journey account/ })).toBeVisible();

  // An unknown path goes to /accounts.
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/accounts$/);

  // Forgot password → reset → log in with the new password.
  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  await page.goto('/login');
  await page.getByRole('link', { name: /Forgot password/ }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(fieldError(page, 'Please enter an email.')).toBeVisible();
  const askedAt = Date.now() - 1000;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole('button', { name: 'Reset' }).click();
  for (const message of ['Password is required.', 'Confirm password is required.', 'Verification code is required.']) {
    await expect(fieldError(page, message)).toBeVisible();
  }
  const newPassword = 'second secret 2';
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm password').fill('not the same 2');
  await expect(fieldError(page, 'Passwords do not match.')).toBeVisible();
  await page.getByLabel('Confirm password').fill(newPassword);
  await page.getByLabel('Verification code').fill(await mailedCode(request, email, askedAt));
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectToastShown(page, 'Password has been updated.');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/accounts$/);

  // Change password from the user menu.
  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/change-password$/);
  await page.getByRole('button', { name: 'Update' }).click();
  for (const message of ['Old password is required.', 'New password is required.', 'Confirm password is required.']) {
    await expect(fieldError(page, message)).toBeVisible();
  }
  await page.getByLabel('Old password').fill(newPassword);
  await page.getByLabel('New password').fill('third secret 3');
  await page.getByLabel('Confirm password').fill('third secret 4');
  await expect(fieldError(page, 'Passwords do not match.')).toBeVisible();
  await page.getByLabel('Confirm password').fill('third secret 3');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expectToastShown(page, 'Password has been updated.');
  const check = await request.post('/auth/sign-in', { data: { email, password: 'third secret 3' } });
  expect(check.status()).toBe(200);
});

test('an unconfirmed user who logs in is sent a new code and taken to verification', async ({ page, request }) => {
  const email = uniqueEmail('unconfirmed');
  const signUp = await request.post('/auth/sign-up', {
    data: { email, password: 'waiting pass 1', givenName: 'Una', familyName: 'Confirmed' },
  });
  expect(signUp.status()).toBe(200);
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('waiting pass 1');
  const resend = page.waitForRequest((r) => r.url().endsWith('/auth/resend-code') && r.method() === 'POST');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  expect((await resend).postDataJSON()).toEqual({ email });
  await expect(page.getByRole('heading', { name: 'Email Validation' })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-up$/);
});
