import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import {
  accountHeaders,
  admin,
  createAccountOverApi,
  expectToastShown,
  idTokenOverApi,
  logIn,
  openSubmenu,
  recordToasts,
  signUpOverApi,
} from './support.ts';

/**
 * Aurora Testnet, priced here at 2 000 USD per million compute units: an eth_blockNumber (1 unit)
 * costs 0.002 USD, so a cap of 0.01 USD is reached in five calls. A price is the resource's, for
 * every account: no other journey calls Aurora Testnet.
 */
const RESOURCE = 'RPC_API_AURORA_TESTNET';
const NETWORK = 'aurora/testnet';
const USD_PER_MILLION_CU = '2000';
const ACCOUNT_NAME = 'Capped journey';
const CAP_REACHED = "The account's monthly spending cap of $0.01 is reached; raise it in Billing.";

const blockNumber = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] });

/** The alert e-mails' subjects sent to an address, read from the dev outbox. */
async function alertSubjects(request: APIRequestContext, email: string): Promise<string[]> {
  const mails = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as Array<{
    subject: string;
  }>;
  return mails.map((m) => m.subject).filter((subject) => subject.includes('alert'));
}

/** Sets the monthly RPC cap on Billing → Buy Credits as the owner does, and waits for what the page says. */
async function setCap(page: Page, usd: string, shown: string) {
  const capCard = page
    .locator('.ant-card')
    .filter({ has: page.locator('.ant-card-head-title', { hasText: 'Spending cap' }) });
  await capCard.getByLabel('Monthly RPC cap (USD)').fill(usd);
  await capCard.getByRole('button', { name: 'Save spending cap' }).click();
  await expectToastShown(page, 'Your spending cap has been saved.');
  const stops = capCard
    .locator('.ant-descriptions-item')
    .filter({ hasText: "Stop RPC calls when this month's RPC usage reaches" });
  await expect(stops.locator('.ant-descriptions-item-content')).toHaveText(shown);
}

/**
 * The monthly spending cap end to end: the owner caps the month's RPC usage at 0.01 USD in Billing;
 * the key's calls are served until the usage reaches it, then answered 402 with the cap's message;
 * the alerts e-mail the owner at 80 % and at 100 %; a higher cap serves the calls again; and the
 * Pricing page's estimate of the last 30 days is what was billed, to the micro-dollar.
 */
test('a monthly spending cap stops the calls with 402 and alerts the owner; raised, calls are served; the estimate equals the bill', async ({
  page,
  request,
}) => {
  await recordToasts(page);
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, ACCOUNT_NAME);
  admin('deposit', '--account', accountId, '--amount', '10', '--note', 'cap journey credit');
  const headers = accountHeaders(await idTokenOverApi(request, email, password), accountId);
  const created = await request.post('/api/v1.0/key', { headers, data: { name: 'Capped key' } });
  expect(created.status()).toBe(200);
  const { keyId, key } = (await created.json()).data.key as { keyId: string; key: string };
  const url = `/api/v1.0/rpc/${NETWORK}?x-api-key-id=${keyId}&x-api-key=${key}`;

  expect(admin('price', 'set', RESOURCE, USD_PER_MILLION_CU)).toContain(
    `${RESOURCE} now costs 2000 USD per million compute units (0.002 USD per unit)`,
  );
  // The gateway reads prices every few seconds: call once it prices at the new one, as the public list shows.
  await expect
    .poll(async () => {
      const pricing = (await (await request.get('/api/v1.0/rpc/pricing')).json()).data as {
        networks: Array<{ resourceName: string; usdPerMillionCu: string }>;
      };
      return pricing.networks.find((n) => n.resourceName === RESOURCE)?.usdPerMillionCu;
    })
    .toBe(USD_PER_MILLION_CU);

  // The owner caps the month's RPC usage at one cent in Billing → Buy Credits.
  await logIn(page, email, password);
  await page.getByRole('row', { name: new RegExp(ACCOUNT_NAME) }).click();
  const sider = page.locator('.ant-layout-sider');
  await openSubmenu(sider, 'Billings');
  await sider.getByText('Buy Credits', { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/billings/buyCredits$`));
  await setCap(page, '0.01', '$0.01');

  // Calls are served until this month's usage reaches the cap (five calls at 0.002 USD, and any the
  // gateway served before it had read the new cap, within a second), then refused with 402.
  let id = 0;
  const served: unknown[] = [];
  let refused: unknown;
  await expect
    .poll(
      async () => {
        id += 1;
        const answer = await request.post(url, { data: blockNumber(id) });
        const body = (await answer.json()) as { result?: string };
        if (answer.status() === 200) served.push(body.result);
        else refused = body;
        return answer.status();
      },
      { intervals: [50], timeout: 20_000 },
    )
    .toBe(402);
  expect(served.length).toBeGreaterThanOrEqual(5);
  expect(served.every((result) => typeof result === 'string' && /^0x/.test(result))).toBe(true);
  expect(refused).toEqual({ jsonrpc: '2.0', id, error: { code: -32005, message: CAP_REACHED } });

  // The alerts job e-mails the owner: 80 % and 100 % of the cap, both reached at once.
  admin('jobs', 'run', 'alerts');
  await expect
    .poll(() => alertSubjects(request, email))
    .toEqual(
      expect.arrayContaining([
        `EBS Console: Spending cap 80% alert started on "${ACCOUNT_NAME}"`,
        `EBS Console: Spending cap 100% alert started on "${ACCOUNT_NAME}"`,
      ]),
    );

  // A higher cap serves the calls again within about a second.
  await setCap(page, '1.00', '$1.00');
  await expect
    .poll(async () => (await request.post(url, { data: blockNumber(++id) })).status(), { intervals: [100] })
    .toBe(200);

  // The operator bills now (the schedule bills closed days). The run bills every account's usage;
  // this account's records and withdrawal are read below.
  expect(admin('jobs', 'run', 'billing')).toMatch(/"errors":\[\]/);
  const records = (await (await request.get('/api/v1.0/usage/api/billing', { headers })).json()).data
    .accountResourceUsage as Array<{ resourceName: string; status: string; price: number }>;
  // One record, or two: another journey's billing run (it bills every account) may have billed the
  // first calls, and the later ones opened a new record; each run withdraws what it billed.
  expect(records.length).toBeGreaterThan(0);
  expect(records.filter((r) => r.resourceName !== RESOURCE || r.status !== 'BILLED')).toEqual([]);
  const billed = records.reduce((sum, r) => sum + r.price, 0).toFixed(6);
  // Transaction History's withdrawals, as its table reads them (the table shows 5 decimals).
  const transactions = (
    await (await request.get('/api/v1.0/transaction?typeIn=WITHDRAW_RESOURCE_USAGE', { headers })).json()
  ).data.transactions as Array<{ amount: number }>;
  expect(transactions.length).toBeGreaterThan(0);
  expect((-transactions.reduce((sum, t) => sum + t.amount, 0)).toFixed(6)).toBe(billed);

  // Services → Pricing: the last 30 days at today's price, the price they were billed at.
  await openSubmenu(sider, 'Services');
  await sider.getByText('Pricing', { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/account/${accountId}/services/pricing$`));
  const estimate = page.getByTestId('pricing-estimate');
  await expect(estimate).toHaveText(/^\$\d+\.\d{2} \(\d+\.\d{6,} USD\)$/);
  const [, cents, exact] = (await estimate.textContent())?.match(/^\$(\S+) \((\S+) USD\)$/) ?? [];
  expect(Number(exact).toFixed(6)).toBe(billed);
  expect(cents).toBe(Number(billed).toFixed(2));
});
