import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { createWalletClient, formatEther, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';

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

/** Signs in over the API (a second session of the same user) and returns its identity token. */
export async function idTokenOverApi(request: APIRequestContext, email: string, password: string): Promise<string> {
  const signIn = await request.post('/auth/sign-in', { data: { email, password } });
  expect(signIn.status()).toBe(200);
  return ((await signIn.json()).data as { idToken: string }).idToken;
}

/** The headers of an account-scoped API call, as the console sends them. */
export const accountHeaders = (idToken: string, accountId: string) => ({
  authorization: `Bearer ${idToken}`,
  'ebs-account-id': accountId,
});

/** Signs in over the API (a second session of the same user) and creates an account with POST /api/v1.0/account. */
export async function createAccountOverApi(
  request: APIRequestContext,
  email: string,
  password: string,
  accountName: string,
): Promise<string> {
  const idToken = await idTokenOverApi(request, email, password);
  const created = await request.post('/api/v1.0/account', {
    data: { accountName },
    headers: accountHeaders(idToken, ''),
  });
  expect(created.status()).toBe(200);
  return ((await created.json()).data as { id: string }).id;
}

/**
 * Opens a submenu of the side menu and waits until it has finished opening: a click on one of its
 * entries while the menu still slides can land on the entry below it, as a hurried person's would.
 */
export async function openSubmenu(sider: Locator, title: string) {
  await sider.getByText(title, { exact: true }).click();
  await expect(sider.locator('[class*="-enter"], [class*="-leave"], [class*="-appear"]')).toHaveCount(0);
}

export async function openUserMenu(page: Page, email: string) {
  await page.getByText(email, { exact: true }).click();
}

/**
 * Records the raw text of every toast the page shows from now on (call before the page opens), so
 * that a check on a loaded machine cannot miss a toast that has already gone.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // A notice may be reused for the next toast (one at a time): each new text of it counts.
    const lastText = new WeakMap<Element, string>();
    const shown: Array<{ text: string; checked: boolean }> = [];
    Object.assign(window, { shownToasts: shown });
    new MutationObserver(() => {
      for (const notice of document.querySelectorAll('.ant-message-notice')) {
        const text = notice.textContent ?? '';
        if (!text || lastText.get(notice) === text) continue;
        lastText.set(notice, text);
        shown.push({ text, checked: false });
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * Waits until a toast with exactly this text (spaces as written) has been shown that no earlier
 * call has checked, and marks it checked: the same words shown twice need two toasts. Every toast
 * has one key, so the same words again while the first is still on screen change nothing the user
 * sees (nor the page): then the toast on screen now is the one. See recordToasts.
 */
export async function expectToastShown(page: Page, text: string, options?: { timeout?: number }): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate((wanted) => {
          const shown = (window as unknown as { shownToasts?: Array<{ text: string; checked: boolean }> }).shownToasts;
          const toast = shown?.find((t) => t.text === wanted && !t.checked);
          if (toast) toast.checked = true;
          const onScreen = [...document.querySelectorAll('.ant-message-notice')].some((n) => n.textContent === wanted);
          return Boolean(toast) || onScreen;
        }, text),
      options,
    )
    .toBe(true);
}

/** Signs up and confirms over the identity API, for journeys that start signed up. */
export async function signUpOverApi(
  request: APIRequestContext,
  password = 'journey pass 1',
): Promise<{ email: string; password: string }> {
  const email = uniqueEmail();
  const signUp = await request.post('/auth/sign-up', {
    data: { email, password, givenName: 'Jo', familyName: 'Urney' },
  });
  expect(signUp.status()).toBe(200);
  const confirm = await request.post('/auth/confirm-sign-up', {
    data: { email, code: await mailedCode(request, email) },
  });
  expect(confirm.status()).toBe(200);
  return { email, password };
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/accounts$/);
}

/**
 * Runs the admin command line against the running journey server, as an operator would: the built
 * one (`npm run build`, which the journeys' server start also runs when the build is outdated).
 */
export function admin(...args: string[]): string {
  const result = spawnSync(process.execPath, ['apps/server/dist/admin.mjs', ...args], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, PORT: process.env.E2E_PORT },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** The admin command line's own transport, for journeys that need many commands quickly. */
export async function adminOverHttp(request: APIRequestContext, ...args: string[]): Promise<unknown> {
  const secrets = JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR ?? '', 'secrets.json'), 'utf8')) as {
    adminToken: string;
  };
  const response = await request.post(`http://127.0.0.1:${process.env.E2E_PORT}/admin/command`, {
    headers: { 'x-admin-token': secrets.adminToken },
    data: { args },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).json;
}

/** Picks an option of the antd select labelled `label`. */
export async function chooseOption(page: Page, label: string, option: string) {
  const select = page.locator('.ant-select').filter({ has: page.getByLabel(label, { exact: true }) });
  await select.locator('.ant-select-selector').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook target on this machine: keeps what it is sent and answers 200 with `answer`. */
export async function startWebhookReceiver(answer: string) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/journey-hook`,
    /** The deliveries whose JSON body has this `type`. */
    ofType: (type: string) => received.filter((r) => (JSON.parse(r.body) as { type?: string }).type === type),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sends `wei` to an address on Ethereum Sepolia as a customer would: from a key held here, funded
 * by the operator's faucet (`chain fund`), signed by viem and sent through the gateway with
 * eth_sendRawTransaction (the gateway refuses node-signed eth_sendTransaction).
 */
export async function sendCoins(gatewayUrl: string, to: string, wei: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  // Room for the sender's own network fee.
  const funded = formatEther(wei + parseEther('0.01'));
  admin('chain', 'fund', '--network', 'ethereum/sepolia', '--address', account.address, '--amount', funded);
  const wallet = createWalletClient({ account, chain: sepolia, transport: http(gatewayUrl) });
  const hash = await wallet.sendTransaction({ to: to as `0x${string}`, value: wei });
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
}

/**
 * The key id and secret shown once in the "Your New API Key" modal (a new or a rolled key), copied
 * as the user would (the clipboard is written a moment after the click: each read waits for it),
 * then closed with Done. Needs the clipboard permissions granted.
 */
export async function copyShownKey(page: Page): Promise<{ keyId: string; key: string }> {
  const shown = page.getByRole('dialog', { name: 'Your New API Key' });
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await shown.getByRole('region', { name: 'API Key ID' }).getByRole('button', { name: 'Copy' }).click();
  await expect.poll(clipboard).toMatch(/^[0-9a-f-]{36}$/);
  const keyId = await clipboard();
  await shown.getByRole('region', { name: 'API Key', exact: true }).getByRole('button', { name: 'Copy' }).click();
  await expect.poll(clipboard).toMatch(/^[\w-]{43}$/);
  const key = await clipboard();
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);
  return { keyId, key };
}
