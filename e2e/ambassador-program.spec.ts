import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import {
  accountHeaders,
  admin,
  createAccountOverApi,
  idTokenOverApi,
  logIn,
  mailedCode,
  openUserMenu,
  signUpOverApi,
  uniqueEmail,
} from './support.ts';

const card = (page: import('@playwright/test').Page, title: string) =>
  page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });

test('an ambassador shares a code, a referred user signs up with it, and a 100 USD deposit earns exactly 10 USD once', async ({
  page,
  request,
}) => {
  // An operator makes a user an ambassador at 10 %.
  const ambassador = await signUpOverApi(request);
  const granted = admin('ambassador', 'grant', '--email', ambassador.email, '--rate', '0.1');
  const code = granted.match(/code (\w+)/)?.[1] as string;
  expect(code).toMatch(/^[A-Z2-9]{8}$/);

  await logIn(page, ambassador.email, ambassador.password);
  await openUserMenu(page, ambassador.email);
  await page.getByRole('menuitem', { name: 'Ambassador Program' }).click();
  await expect(page).toHaveURL(/\/ambassador-program$/);
  await expect(page.locator('.ant-layout-sider')).toHaveCount(0);
  await expect(card(page, 'Ambassador code').getByText(code, { exact: true })).toBeVisible();
  await expect(card(page, 'Reward rate').getByText('10%', { exact: true })).toBeVisible();
  await expect(card(page, 'Current balance').getByText('$0.00 USD')).toBeVisible();
  await expect(page.getByText('No one has signed up with your code yet.')).toBeVisible();
  await openUserMenu(page, ambassador.email);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();

  // A new user signs up with the code: a wrong code first is refused with the spec's words.
  const referred = { email: uniqueEmail('referred'), password: 'referred pass 1' };
  await page.goto('/sign-up');
  await page.getByLabel('First name').fill('Rita');
  await page.getByLabel('Last name').fill('Ferred');
  await page.getByLabel('Email').fill(referred.email);
  await page.getByLabel('Password', { exact: true }).fill(referred.password);
  await page.getByLabel('Confirm password').fill(referred.password);
  await page.getByLabel('Referral code').fill('WRONG234');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.locator('.ant-form-item-explain-error').getByText('Referral code does not exist.')).toBeVisible();
  await page.getByLabel('Referral code').fill(code);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Email Validation' })).toBeVisible();
  await page.getByLabel('Verification code').fill(await mailedCode(request, referred.email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/accounts$/);

  // Not an ambassador: no menu entry, and the page sends them back to their accounts.
  await openUserMenu(page, referred.email);
  await expect(page.getByRole('menuitem', { name: 'Create account' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Ambassador Program' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/ambassador-program');
  await expect(page).toHaveURL(/\/accounts$/);

  // The referred user pays 100 USD by card (setup intent, the processor's confirmation, attach, deposit).
  const accountId = await createAccountOverApi(request, referred.email, referred.password, 'Referred account');
  const h = accountHeaders(await idTokenOverApi(request, referred.email, referred.password), accountId);
  const setup = (await (await request.get('/api/v1.0/payment/local', { headers: h })).json()).data;
  const confirmed = await request.post(`/processor/v1/setup_intents/${setup.setupIntentId}/confirm`, {
    data: {
      client_secret: setup.client_secret,
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
    },
  });
  const { payment_method } = await confirmed.json();
  const cardId = (
    await (await request.post('/api/v1.0/payment/card', { data: { cardToken: payment_method }, headers: h })).json()
  ).data.cardId;
  const deposit = () =>
    request.post('/api/v1.0/payment/card/deposit', {
      data: { cardId, depositAmount: 100 },
      headers: { ...h, 'idempotency-key': 'ambassador-journey-deposit' },
    });
  expect((await deposit()).status()).toBe(200);
  // A retry of the same payment and the sweep job change nothing.
  expect((await deposit()).status()).toBe(200);
  admin('jobs', 'run', 'ambassadors');

  // The ambassador sees the linked e-mail and exactly 10 USD.
  await page.context().clearCookies();
  await logIn(page, ambassador.email, ambassador.password);
  await page.goto('/ambassador-program');
  await expect(card(page, 'Linked users').getByText(referred.email, { exact: true })).toBeVisible();
  await expect(card(page, 'Current balance').getByText('$10.00 USD')).toBeVisible();
});
