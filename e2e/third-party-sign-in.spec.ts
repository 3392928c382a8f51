import { expect, type Page } from '@playwright/test';
import { codeOfStep, currentStep, wrongCode } from '../apps/server/src/testing/two-factor.ts';
import { test } from './fixtures.ts';
import { E2E_OIDC, startOpenIdProvider } from './openid-provider.ts';
import {
  admin,
  expectToastShown,
  idTokenOverApi,
  openUserMenu,
  recordToasts,
  signUpOverApi,
  uniqueEmail,
} from './support.ts';

const consoleUrl = `http://localhost:${process.env.E2E_PORT}`;
let provider: Awaited<ReturnType<typeof startOpenIdProvider>>;

test.beforeAll(async () => {
  provider = await startOpenIdProvider(consoleUrl);
});

test.afterAll(async () => {
  await provider?.close();
});

const providerButton = (page: Page) => page.getByRole('button', { name: 'Sign in with Test ID' });

/** At the provider's development pages: any password signs in; the consent page asks once per grant. */
async function signInAtProvider(page: Page, email: string) {
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_OIDC.port}/interaction/`));
  await page.getByPlaceholder('Enter any login').fill(email);
  await page.getByPlaceholder('and password').fill('any password at all');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('third-party sign-in: a cancel comes back as the login error, a first sign-in creates the user, a second finds them', async ({
  page,
}) => {
  await recordToasts(page);
  const email = uniqueEmail('provider');

  // Cancelling at the provider comes back to the Login page with a clear message.
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();
  await providerButton(page).click();
  await expect(page).toHaveURL(/\/interaction\//);
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectToastShown(page, 'The sign-in was cancelled or refused at the provider.');

  // The first provider has no settings in the journeys: its button says so and goes nowhere.
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await expectToastShown(page, 'This sign-in provider is not configured.');
  await expect(page).toHaveURL(/\/login$/);

  // A first sign-in creates the user from the provider's verified e-mail and lands on /accounts.
  await providerButton(page).click();
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(/\/accounts$/);
  await expectToastShown(page, 'Welcome back!');
  await expect(page.getByText(email, { exact: true })).toBeVisible();

  // An account made in this session shows who the user is on the next sign-in.
  const refreshed = await page.request.post('/auth/refresh');
  expect(refreshed.status()).toBe(200);
  const idToken = ((await refreshed.json()).data as { idToken: string }).idToken;
  const created = await page.request.post('/api/v1.0/account', {
    data: { accountName: 'Provider account' },
    headers: { authorization: `Bearer ${idToken}`, 'ebs-account-id': '' },
  });
  expect(created.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('cell', { name: 'Provider account' })).toBeVisible();

  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();

  // A second sign-in is the same user: the provider remembers the person, the console finds them.
  await providerButton(page).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Provider account' })).toBeVisible();

  // Without a password of their own, the password form refuses them like a wrong password.
  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('guessed password 1');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expectToastShown(page, 'Incorrect username or password.');
});

test('third-party sign-in asks a user with two-factor sign-in on for the code, which signs in; the admin command turns it off', async ({
  page,
  request,
}) => {
  await recordToasts(page);
  // A password user with two-factor sign-in on; the provider vouches for the same verified e-mail.
  const { email, password } = await signUpOverApi(request);
  const headers = { authorization: `Bearer ${await idTokenOverApi(request, email, password)}` };
  const { secret } = (await (await request.post('/auth/mfa/setup', { headers })).json()).data as { secret: string };
  const enabledAt = currentStep();
  const enable = await request.post('/auth/mfa/enable', { headers, data: { code: codeOfStep(secret, enabledAt) } });
  expect(enable.status()).toBe(200);

  // The provider's sign-in is not enough: the Login page asks for the code, the challenge out of the address.
  await page.goto('/login');
  await providerButton(page).click();
  await signInAtProvider(page, email);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('j***@e***.com', { exact: true })).toBeVisible();
  await page.getByLabel('Authentication code').fill(wrongCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectToastShown(page, 'Invalid authentication code, please try again.');
  // A code of a later step than the one that turned it on (the server takes each step once).
  await page.getByLabel('Authentication code').fill(codeOfStep(secret, Math.max(currentStep(), enabledAt + 1)));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expectToastShown(page, 'Welcome back!');
  await expect(page.getByText(email, { exact: true })).toBeVisible();

  // The operator turns it off for a user who lost the app; the provider alone signs in again.
  expect(JSON.parse(admin('mfa', 'disable', '--email', email, '--json'))).toEqual({
    email,
    mfaEnabled: false,
    wasEnabled: true,
  });
  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await providerButton(page).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(page.getByText(email, { exact: true })).toBeVisible();
});
