import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { createAccountOverApi, expectToastShown, logIn, recordToasts, signUpOverApi } from './support.ts';

test('contact us: the short-message rule, then a ticket mailed to support', async ({ page, request }) => {
  await recordToasts(page);
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Help desk');
  await logIn(page, email, password);
  await page.getByRole('row', { name: /Help desk/ }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/overview$`));
  await page.getByRole('menuitem', { name: 'Contact Us' }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/contactUs$`));

  await expect(page.locator('.ant-breadcrumb')).toContainText('Contact Us');
  const account = page.getByLabel('Account', { exact: true });
  await expect(account).toBeDisabled();
  await expect(account).toHaveValue(`Help desk (${accountId})`);

  const message = page.getByLabel('Message', { exact: true });
  await message.fill('Too short');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Your message is too short, please describe the issue in more detail.')).toBeVisible();

  const text = 'Our RPC calls on Polygon mainnet time out since this morning.';
  await message.fill(text);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expectToastShown(page, 'We received your message, we will get back to you soon.');
  await expect(message).toHaveValue('');

  const mails = (await (await request.get('/dev/mailbox.json?to=support%40localhost')).json()) as Array<{
    subject: string;
    text: string;
  }>;
  const mail = mails.find((m) => m.text.includes(accountId));
  expect(mail?.subject).toBe(`Contact Us ticket from Help desk (${accountId})`);
  expect(mail?.text).toContain(`User: Jo Urney <${email}>`);
  expect(mail?.text).toContain(text);
});
