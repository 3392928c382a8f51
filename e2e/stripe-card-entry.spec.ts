import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { type FakeStripe, startFakeStripe } from '../apps/server/src/testing/fake-stripe.ts';
import { FAKE_STRIPE_DECLINE, FAKE_STRIPE_JS, type FakeStripeJsRecord } from './fake-stripe-js.ts';
import { apiClient, test } from './fixtures.ts';
import { createAccountOverApi, expectToastShown, logIn, recordToasts, signUpOverApi } from './support.ts';

// A console of its own whose card provider is Stripe, talking to the local stand-in of Stripe's API;
// the browser gets a stand-in of Stripe.js, as js.stripe.com cannot be reached from here.
const root = path.resolve(import.meta.dirname, '..');
const publishableKey = `pk_test_E2e${randomBytes(8).toString('hex')}`;
let fakeStripe: FakeStripe;
let server: ChildProcess | undefined;
let dataDir = '';
let consoleUrl = '';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  fakeStripe = await startFakeStripe();
  const port = await freePort();
  consoleUrl = `http://localhost:${port}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'ebs-e2e-stripe-'));
  let stderr = '';
  // The built server, as the journeys' own (playwright.config.ts), with Stripe as the card provider.
  const child = spawn(process.execPath, ['apps/server/dist/main.mjs'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: consoleUrl,
      CARD_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: fakeStripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: publishableKey,
      STRIPE_API_BASE: fakeStripe.url,
      FORWARDING_ENGINE: 'off',
      JOBS_INTERVAL_SECONDS: '0',
    },
  });
  server = child;
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the Stripe console exited (${child.exitCode}): ${stderr}`);
    const answer = await fetch(`${consoleUrl}/api/v1.0/config`).catch(() => undefined);
    if (answer?.ok) break;
    if (Date.now() > deadline) throw new Error(`the Stripe console did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  const child = server;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await fakeStripe?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("with Stripe as card provider, Add waits for Stripe.js and its element, and confirmSetup's decline is shown", async ({
  browser,
  playwright,
}) => {
  const request = await apiClient(playwright, consoleUrl);
  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Stripe cards');
  await request.dispose();

  const context = await browser.newContext({ baseURL: consoleUrl });
  const page = await context.newPage();
  await recordToasts(page);
  // Stripe.js is held until the journey has seen Add disabled without it.
  const requested: string[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await context.route('https://js.stripe.com/**', async (route) => {
    requested.push(route.request().url());
    await released;
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_STRIPE_JS });
  });
  const seen = () => page.evaluate(() => (window as unknown as { __fakeStripe: FakeStripeJsRecord }).__fakeStripe);

  await logIn(page, email, password);
  await page.goto(`/account/${accountId}/billings/addPaymentCard`);
  // Nothing of Stripe is fetched before a card entry opens.
  await expect(page.getByRole('button', { name: 'Add Card' })).toBeVisible();
  expect(requested).toEqual([]);
  await page.getByRole('button', { name: 'Add Card' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Payment Method' });
  const add = dialog.getByRole('button', { name: 'Add', exact: true });

  // The dialog asks js.stripe.com for Stripe.js, and Add stays disabled while it has not loaded.
  await expect.poll(() => requested).toEqual([expect.stringMatching(/^https:\/\/js\.stripe\.com\/endive\/stripe\.js/)]);
  await expect(add).toBeDisabled();
  expect(await page.evaluate(() => 'Stripe' in window)).toBe(false);
  release();

  // Stripe.js is started with the configured publishable key, and its element mounts in the dialog.
  await expect(dialog.getByTestId('fake-stripe-element')).toHaveText('Stripe payment element (test stand-in)');
  const loaded = await seen();
  expect(loaded.keys).toEqual([publishableKey]);
  expect(loaded.mounted).toEqual(['payment']);
  expect(loaded.clientSecrets).toEqual([expect.stringMatching(/^seti_\w+_secret_\w+$/)]);
  expect(loaded.registered).toEqual(expect.arrayContaining(['wrapper:stripe-js', 'wrapper:react-stripe-js']));
  expect(fakeStripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/setup_intents')).toHaveLength(1);
  // Loaded but not yet ready (Stripe's frame still loading): still disabled; enabled once ready.
  await expect(add).toBeDisabled();
  await page.evaluate(() => (window as unknown as { __fakeStripe: { fireReady(): void } }).__fakeStripe.fireReady());
  await expect(add).toBeEnabled();

  // Add confirms the setup intent with Stripe from the browser, in place; Stripe's own message is shown.
  await add.click();
  await expectToastShown(page, FAKE_STRIPE_DECLINE);
  expect((await seen()).confirmations).toEqual([
    { sameElements: true, redirect: 'if_required', returnUrl: page.url() },
  ]);
  expect(fakeStripe.requests.filter((r) => r.path.includes('/confirm'))).toEqual([]);
  await expect(dialog).toBeVisible();
  await expect(add).toBeEnabled();
  expect(requested).toHaveLength(1);
  await context.close();
});
