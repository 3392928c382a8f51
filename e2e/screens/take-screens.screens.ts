import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { addCard, createSampleAccount, logIn, type SampleAccount } from '../sample-data.ts';

const OUT = path.resolve(import.meta.dirname, '../../docs/screens');
const SIZES = { desktop: { width: 1440, height: 900 }, mobile: { width: 390, height: 844 } } as const;
type Size = keyof typeof SIZES;

/** Every console route (apps/web/src/config/paths.ts), by the name its screenshot files carry. */
const ACCOUNT_ROUTES = {
  overview: 'overview',
  services: 'services',
  rpc: 'services/rpc',
  status: 'services/status',
  analytics: 'services/analytics',
  requests: 'services/requests',
  wallets: 'services/token-forwarding/wallets',
  'create-wallet': 'services/token-forwarding/wallets/create',
  transactions: 'services/token-forwarding/transactions',
  'api-keys': 'apiKeys',
  'billings-overview': 'billings/overview',
  'buy-credits': 'billings/buyCredits',
  'add-payment-card': 'billings/addPaymentCard',
  settings: 'settings',
  'contact-us': 'contactUs',
} as const;
const SIGNED_IN_ROUTES = {
  accounts: '/accounts',
  'accounts-create': '/accounts/create',
  'change-password': '/change-password',
  security: '/security',
  'ambassador-program': '/ambassador-program',
} as const;

/** What each screenshot found wrong in the page's own layout, printed at the end. */
const layoutProblems: string[] = [];

/** Waits until the page shows its data: no request in flight, no skeleton or spinner left. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-skeleton, .ant-spin-spinning')).toHaveCount(0, { timeout: 20_000 });
  await page.evaluate(() => document.fonts.ready);
  expect((await page.locator('body').innerText()).trim().length).toBeGreaterThan(20);
}

/** Saves docs/screens/<name>-<size>.png, the whole page, and notes any sideways overflow. */
async function shoot(page: Page, name: string, size: Size) {
  await settle(page);
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wider = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && e.checkVisibility())
      // Content of a scrolling box (a wide table) scrolls within it rather than out of the page.
      .filter((e) => {
        for (let box = e.parentElement; box && box !== document.body; box = box.parentElement) {
          if (getComputedStyle(box).overflowX !== 'visible') return false;
        }
        return true;
      })
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
    return { scroll: document.documentElement.scrollWidth - width, wider: wider.slice(0, 5) };
  });
  if (overflow.scroll > 0 || overflow.wider.length > 0) {
    layoutProblems.push(`${name} ${size}: ${overflow.scroll}px wider than the window; ${overflow.wider.join(', ')}`);
  }
  await page.screenshot({
    path: path.join(OUT, `${name}-${size}.png`),
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
    // Toasts from the steps that led here are not part of the page.
    style: '.ant-message { display: none !important; }',
  });
}

/** On a desktop every table fits the window (a phone may scroll inside the table's box). */
async function checkTablesFit(page: Page, name: string) {
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('.ant-table-content, .ant-table-body')]
      .filter((box) => box.checkVisibility() && box.scrollWidth > box.clientWidth + 1)
      .map((box) => `${box.scrollWidth - box.clientWidth}px`),
  );
  if (wide.length > 0) layoutProblems.push(`${name} desktop: a table scrolls sideways by ${wide.join(', ')}`);
}

async function signedOutScreens(browser: Browser, size: Size, email: string) {
  const context = await browser.newContext({ viewport: SIZES[size] });
  const page = await context.newPage();
  for (const [name, route] of [
    ['login', '/login'],
    ['sign-up', '/sign-up'],
    ['forgot-password', '/forgot-password'],
  ] as const) {
    await page.goto(route);
    await shoot(page, name, size);
  }
  // Reset Password opens from Forgot Password, for the address given there.
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await shoot(page, 'reset-password', size);
  await context.close();
}

async function signedInScreens(browser: Browser, size: Size, account: SampleAccount) {
  const context = await browser.newContext({ viewport: SIZES[size] });
  const page = await context.newPage();
  await logIn(page, account.email, account.password);
  for (const [name, route] of Object.entries(SIGNED_IN_ROUTES)) {
    await page.goto(route);
    await shoot(page, name, size);
  }
  for (const [name, route] of Object.entries(ACCOUNT_ROUTES)) {
    await page.goto(`/account/${account.accountId}/${route}`);
    await shoot(page, name, size);
    if (size === 'desktop') await checkTablesFit(page, name);
  }
  if (size === 'mobile') {
    // The side menu, opened on a phone, lies over the page.
    await page.goto(`/account/${account.accountId}/${ACCOUNT_ROUTES.overview}`);
    await page.getByRole('button', { name: 'Expand menu' }).click();
    await shoot(page, 'side-menu-open', size);
  }
  if (size === 'desktop') {
    // The wallets page's other tabs have tables of their own.
    await page.goto(`/account/${account.accountId}/${ACCOUNT_ROUTES.wallets}`);
    for (const tab of ['Gas Fee Funding Wallets', 'Destination Wallets']) {
      await page.getByRole('tab', { name: tab }).click();
      await settle(page);
      await checkTablesFit(page, `wallets (${tab})`);
    }
  }
  await context.close();
}

test('screenshots of every route at 1440 × 900 and 390 × 844', async ({ browser, page, request, baseURL }) => {
  const account = await createSampleAccount(request, baseURL ?? '');
  await logIn(page, account.email, account.password);
  await addCard(page, account, '4242 4242 4242 4242');
  await addCard(page, account, '5555 5555 5555 4444');
  for (const size of Object.keys(SIZES) as Size[]) {
    await signedOutScreens(browser, size, account.email);
    await signedInScreens(browser, size, account);
  }
  console.log(
    layoutProblems.length
      ? `Layout problems:\n${layoutProblems.join('\n')}`
      : 'No sideways overflow, and every table fits at 1440 px.',
  );
});
