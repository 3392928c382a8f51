import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page } from '@playwright/test';
import { apiClient, test } from './fixtures.ts';
import { addCard, createSampleAccount, logIn, type SampleAccount } from './sample-data.ts';
import { startWebhookReceiver } from './support.ts';

/**
 * axe-core on every console route (apps/web/src/config/paths.ts) and its main dialogs and drawers, with
 * sample data on every page. Fails on any WCAG 2.0/2.1 A or AA violation of impact serious or
 * critical, colour contrast included. Nothing is excluded.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);
const SIZES = { '1440×900': { width: 1440, height: 900 }, '390×844': { width: 390, height: 844 } } as const;
type Size = keyof typeof SIZES;

const SIGNED_IN_ROUTES = ['/accounts', '/accounts/create', '/change-password', '/security', '/ambassador-program'];
const ACCOUNT_ROUTES = [
  'overview',
  'services',
  'services/rpc',
  'services/status',
  'services/pricing',
  'services/analytics',
  'services/requests',
  'services/webhooks',
  'services/token-forwarding/wallets',
  'services/token-forwarding/wallets/create',
  'services/token-forwarding/transactions',
  'apiKeys',
  'billings/overview',
  'billings/buyCredits',
  'billings/addPaymentCard',
  'settings',
  'contactUs',
];

/** Waits until the page shows its data and nothing is still fading or sliding in (axe reads colours as drawn). */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-skeleton, .ant-spin-spinning')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('[class*="-appear"], [class*="-enter"], [class*="-leave"]')).toHaveCount(0);
}

/** Scans the page as it is now; returns one readable line per serious or critical violation. */
async function scan(page: Page, where: string): Promise<string[]> {
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => {
      const targets = v.nodes.map((n) => `${n.target.join(' ')}${contrastOf(n.any)}`);
      const why = v.id === 'color-contrast' ? '' : ` (${v.nodes[0]?.failureSummary?.replace(/\s+/g, ' ')})`;
      return `${where}: ${v.id} (${v.impact}) on ${targets.join(' | ')}${why}`;
    });
}

/** For colour contrast, the measured ratio and colours, so the fix is clear from the message. */
function contrastOf(checks: Array<{ id: string; data?: unknown }>): string {
  const data = checks.find((c) => c.id === 'color-contrast')?.data as
    | { fgColor: string; bgColor: string; contrastRatio: number }
    | undefined;
  return data?.contrastRatio ? ` [${data.fgColor} on ${data.bgColor} = ${data.contrastRatio}:1]` : '';
}

async function signedOutPages(browser: Browser, size: Size, email: string): Promise<string[]> {
  const context = await browser.newContext({ viewport: SIZES[size] });
  const page = await context.newPage();
  const found: string[] = [];
  for (const route of ['/login', '/sign-up', '/forgot-password']) {
    await page.goto(route);
    found.push(...(await scan(page, `${route} at ${size}`)));
  }
  // Reset Password opens from Forgot Password, for the address given there.
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  found.push(...(await scan(page, `/reset-password at ${size}`)));
  await context.close();
  return found;
}

async function signedInPages(page: Page, size: Size, { accountId, webhookId }: SampleAccount): Promise<string[]> {
  const found: string[] = [];
  // The sample webhook's page: its details, addresses and a delivery log with activity and a test.
  const accountRoutes = [...ACCOUNT_ROUTES, `services/webhooks/${webhookId}`];
  for (const route of [...SIGNED_IN_ROUTES, ...accountRoutes.map((r) => `/account/${accountId}/${r}`)]) {
    await page.goto(route);
    found.push(...(await scan(page, `${route} at ${size}`)));
  }
  return found;
}

/** The main dialogs and drawers, each opened with data. */
async function dialogs(page: Page, size: Size, accountId: string): Promise<string[]> {
  const found: string[] = [];
  const account = (route: string) => page.goto(`/account/${accountId}/${route}`);
  const scanOpen = async (name: string, where: string) => {
    await expect(page.getByRole('dialog', { name })).toBeVisible();
    found.push(...(await scan(page, `${where} with "${name}" open at ${size}`)));
  };

  await account('apiKeys');
  await page.getByRole('button', { name: 'Generate New API Keys' }).click();
  await scanOpen('Create API Key', 'apiKeys');

  await account('services/webhooks');
  await page.getByRole('button', { name: 'Create webhook' }).click();
  await scanOpen('Create webhook', 'services/webhooks');

  await account('services/token-forwarding/wallets');
  await page.locator('.ant-tabs-tabpane-active .ant-table-tbody tr.ant-table-row').first().click();
  await scanOpen('Wallet Details', 'wallets');

  await account('services/token-forwarding/transactions');
  await page.locator('.ant-table-tbody tr.ant-table-row').first().click();
  await scanOpen('Transaction Details', 'transactions');

  await account('billings/addPaymentCard');
  await page.getByRole('button', { name: 'Add Card' }).first().click();
  await expect(
    page.getByRole('dialog', { name: 'Add Payment Method' }).getByRole('button', { name: 'Add' }),
  ).toBeEnabled();
  await scanOpen('Add Payment Method', 'billings/addPaymentCard');
  return found;
}

let sample: SampleAccount;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  const baseURL = `http://localhost:${process.env.E2E_PORT}`;
  const request = await apiClient(playwright, baseURL);
  receiver = await startWebhookReceiver('sample receiver got it');
  sample = await createSampleAccount(request, baseURL, { webhookUrl: receiver.url });
  await request.dispose();
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await logIn(page, sample.email, sample.password);
  await addCard(page, sample, '4242 4242 4242 4242');
  await addCard(page, sample, '5555 5555 5555 4444');
  await context.close();
});
test.afterAll(() => receiver.close());

for (const size of Object.keys(SIZES) as Size[]) {
  test(`no serious or critical WCAG 2.1 AA violation on any route or main dialog at ${size}`, async ({
    browser,
    page,
  }) => {
    // Eighteen routes and five dialogs, each scanned whole by axe: 1.7 min alone, past 4 min beside
    // another journey on two cores in a fresh CI run.
    test.setTimeout(480_000);
    await page.setViewportSize(SIZES[size]);
    await logIn(page, sample.email, sample.password);
    const found = [
      ...(await signedInPages(page, size, sample)),
      ...(await dialogs(page, size, sample.accountId)),
      ...(await signedOutPages(browser, size, sample.email)),
    ];
    expect(found.join('\n')).toBe('');
  });
}
