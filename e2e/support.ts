import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const uniqueEmail = (prefix = 'journey') => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;

/** Reads the newest 6-digit code mailed to an address from the dev outbox, as a developer would. */
export async function mailedCode(request: APIRequestContext, email: string, notBefore = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as Array<{
        text: string;
        createdAt: string;
      }>;
      const fresh = mails.find((m) => new Date(m.createdAt).getTime() >= notBefore);
      code = fresh?.text.match(/\b\d{6}\b/)?.[0];
      return code;
    })
    .toBeTruthy();
  return code as string;
}

/** Signs in over the API (a second session of the same user) and creates an account with POST /api/v1.0/account. */
export async function createAccountOverApi(
  request: APIRequestContext,
  email: string,
  password: string,
  accountName: string,
): Promise<string> {
  const signIn = await request.post('/auth/sign-in', { data: { email, password } });
  expect(signIn.status()).toBe(200);
  const { idToken } = (await signIn.json()).data as { idToken: string };
  const created = await request.post('/api/v1.0/account', {
    data: { accountName },
    headers: { authorization: `Bearer ${idToken}`, 'ebs-account-id': '' },
  });
  expect(created.status()).toBe(200);
  return ((await created.json()).data as { id: string }).id;
}

export async function openUserMenu(page: Page, email: string) {
  await page.getByText(email, { exact: true }).click();
}

/** antd shows one toast at a time; this waits for the text in it. */
export const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text, { exact: true });
