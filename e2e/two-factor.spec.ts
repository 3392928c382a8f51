import { expect, type Page } from '@playwright/test';
import { codeOfStep, currentStep, wrongCode } from '../apps/server/src/testing/two-factor.ts';
import { test } from './fixtures.ts';
import { expectToastShown, openUserMenu, recordToasts, signUpOverApi } from './support.ts';

/**
 * An authenticator app: each code it gives is of a later 30-second step than the last one given,
 * since the server takes a step's code once. It waits for the clock when it must; the server
 * accepts the code of the step after the current one (clock drift), so it never waits long.
 */
function authenticatorApp(secret: string) {
  let lastStep = 0;
  return {
    async nextCode(): Promise<string> {
      const step = Math.max(currentStep(), lastStep + 1);
      while (currentStep() < step - 1) await new Promise((r) => setTimeout(r, 500));
      lastStep = step;
      return codeOfStep(secret, step);
    },
    /** A code of no step near now: certainly wrong. */
    wrongCode: () => wrongCode(secret),
  };
}

async function signOut(page: Page, email: string) {
  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
}

/** The password step of the login; two-factor sign-in being on, the second step shows. */
async function enterPassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
}

const section = (page: Page) =>
  page.locator('.ant-card').filter({ has: page.getByRole('heading', { name: 'Two-factor sign-in' }) });

test('two-factor sign-in: turned on with an app, a code after the password, recovery codes once, turned off', async ({
  page,
  context,
  request,
}) => {
  await recordToasts(page);
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { email, password } = await signUpOverApi(request);
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/accounts$/);

  // Turn on from the user menu's Security page: the QR code, the secret as text, a code from the app.
  await openUserMenu(page, email);
  await page.getByRole('menuitem', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByRole('heading', { name: 'Security', level: 2 })).toBeVisible();
  const settings = section(page);
  await expect(settings.getByText('Off', { exact: true })).toBeVisible();
  await settings.getByRole('button', { name: 'Turn on' }).click();
  await expect(settings.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible();
  const secret = ((await settings.locator('.two-factor-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // The code field has the focus, ready for the app's code; the copy button takes it after.
  await expect(settings.getByLabel('Authentication code')).toBeFocused();
  await settings.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const app = authenticatorApp(secret);
  await settings.getByLabel('Authentication code').fill(await app.nextCode());
  await settings.getByRole('button', { name: 'Confirm' }).click();
  await expectToastShown(page, 'Two-factor sign-in has been turned on.');

  // The recovery codes, once.
  const list = settings.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await settings.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join('\n'));
  await settings.getByRole('button', { name: 'I have saved them' }).click();
  await expect(list).toHaveCount(0);
  await page.reload();
  await expect(section(page).getByText('On', { exact: true })).toBeVisible();
  await expect(page.getByText(recoveryCodes[0] ?? '')).toHaveCount(0);

  // Sign in: the password, then a wrong code refused with its message, then the right one.
  await signOut(page, email);
  await enterPassword(page, email, password);
  await expect(page.getByLabel('Authentication code')).toBeFocused();
  await page.getByLabel('Authentication code').fill(app.wrongCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectToastShown(page, 'Invalid authentication code, please try again.');
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await page.getByLabel('Authentication code').fill(await app.nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expectToastShown(page, 'Welcome back!');

  // A recovery code signs in once; used again, it is refused.
  for (const attempt of ['first', 'again'] as const) {
    await signOut(page, email);
    await enterPassword(page, email, password);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    if (attempt === 'first') {
      await expect(page).toHaveURL(/\/accounts$/);
    } else {
      await expectToastShown(page, 'Invalid authentication code, please try again.');
      await page.getByLabel('Recovery code').fill(recoveryCodes[1] ?? '');
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page).toHaveURL(/\/accounts$/);
    }
  }

  // Turn off with a current code; the next sign-in asks for the password only.
  await page.goto('/security');
  await section(page).getByRole('button', { name: 'Turn off' }).click();
  await section(page)
    .getByLabel('Authentication code')
    .fill(await app.nextCode());
  await section(page).getByRole('button', { name: 'Turn off' }).click();
  await expectToastShown(page, 'Two-factor sign-in has been turned off.');
  await expect(section(page).getByText('Off', { exact: true })).toBeVisible();
  await signOut(page, email);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/accounts$/);
});
