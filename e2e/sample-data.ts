import { type APIRequestContext, expect, type Page } from '@playwright/test';
import {
  accountHeaders,
  admin,
  createAccountOverApi,
  idTokenOverApi,
  logIn,
  sendCoins,
  signUpOverApi,
} from './support.ts';

const DESTINATION = '0x1234567890123456789012345678901234567890';

export interface SampleAccount {
  email: string;
  password: string;
  accountId: string;
  /** The address-activity webhook, made when a receiver's URL was given. */
  webhookId?: string;
}

type AccountHeaders = ReturnType<typeof accountHeaders>;

/** A webhook watching the forwarding wallet and its destination on Ethereum Sepolia, with a Test delivery in its log. */
async function createSampleWebhook(
  request: APIRequestContext,
  headers: AccountHeaders,
  url: string,
  addresses: string[],
) {
  const created = await request.post('/api/v1.0/notify/webhook', {
    headers,
    data: { name: 'Treasury movements', network: 'ETHEREUM_SEPOLIA', url, addresses },
  });
  expect(created.status()).toBe(200);
  const { id } = (await created.json()).data as { id: string };
  const tested = await request.post(`/api/v1.0/notify/webhook/${id}/test`, { headers });
  expect(((await tested.json()).data as { statusCode: number | null }).statusCode).toBe(200);
  return id;
}

/** Waits until the webhook has delivered a block's activity (the forwarded deposit's). */
async function awaitActivityDelivered(request: APIRequestContext, headers: AccountHeaders, webhookId: string) {
  await expect
    .poll(
      async () => {
        const page = await request.get(`/api/v1.0/notify/webhook/${webhookId}/deliveries`, { headers });
        const { deliveries } = (await page.json()).data as {
          deliveries: Array<{ activityCount: number; status: string }>;
        };
        return deliveries.some((d) => d.activityCount > 0 && d.status === 'DELIVERED');
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

const rpc = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params });

/**
 * A user with an account that has something on every page: a deposit, API keys, billed and pending
 * RPC usage, token forwarding with a wallet, a forwarded deposit, and the ambassador program; given
 * a receiver's URL, an address-activity webhook told of the deposit and the forward.
 */
export async function createSampleAccount(
  request: APIRequestContext,
  baseURL: string,
  options: { webhookUrl?: string } = {},
): Promise<SampleAccount> {
  const { email, password } = await signUpOverApi(request, 'sample pass 1');
  const accountId = await createAccountOverApi(request, email, password, 'Acme Payments');
  await createAccountOverApi(request, email, password, 'Acme Staging');
  admin('deposit', '--account', accountId, '--amount', '100', '--note', 'launch credit');
  admin('feature', 'enable', 'TOKEN_FORWARDING', '--account', accountId);
  admin('ambassador', 'grant', '--email', email, '--rate', '0.1');
  const headers = accountHeaders(await idTokenOverApi(request, email, password), accountId);

  const created = await request.post('/api/v1.0/key', { headers, data: { name: 'Production backend' } });
  expect(created.status()).toBe(200);
  const { keyId, key } = ((await created.json()).data as { key: { keyId: string; key: string } }).key;
  expect((await request.post('/api/v1.0/key', { headers, data: { name: 'Staging' } })).status()).toBe(200);

  // Usage: a few calls on two networks, billed now by the operator.
  const gateway = (network: string) => `${baseURL}/api/v1.0/rpc/${network}?x-api-key-id=${keyId}&x-api-key=${key}`;
  for (const [i, method] of ['eth_chainId', 'eth_blockNumber', 'net_version', 'eth_gasPrice'].entries()) {
    expect((await request.post(gateway('metabit/testnet'), { data: rpc(method, [], i) })).status()).toBe(200);
  }
  expect((await request.post(gateway('ethereum/sepolia'), { data: rpc('eth_chainId') })).status()).toBe(200);
  // A dapp's call from its page, and one with a wrong parameter: the request log shows both.
  const dapp = { origin: 'https://app.acme-payments.example' };
  expect(
    (await request.post(gateway('metabit/testnet'), { data: rpc('eth_blockNumber'), headers: dapp })).status(),
  ).toBe(200);
  const wrong = rpc('eth_getBalance', ['not an address', 'latest']);
  expect((await request.post(gateway('metabit/testnet'), { data: wrong, headers: dapp })).status()).toBe(200);

  // Token forwarding: a gas fee funding wallet, a destination, a forwarding wallet and one forward.
  const forwarding = (route: string, data: unknown) =>
    request.post(`/api/v1.0/token-forwarding/${route}`, { headers, data });
  expect((await forwarding('gas-fee-funding-wallet', { network: 'ETHEREUM_SEPOLIA', name: 'Gas' })).status()).toBe(200);
  const destination = { network: 'ETHEREUM_SEPOLIA', name: 'Treasury', destinationPublicAddress: DESTINATION };
  expect((await forwarding('destination', destination)).status()).toBe(200);
  const wallet = await forwarding('wallet', {
    network: 'ETHEREUM_SEPOLIA',
    token: 'ETH',
    minimumForwardingAmount: '0.01',
    destinationPublicAddress: DESTINATION,
  });
  expect(wallet.status()).toBe(200);
  const { publicAddress } = (await wallet.json()).data as { publicAddress: string };
  const webhookId = options.webhookUrl
    ? await createSampleWebhook(request, headers, options.webhookUrl, [publicAddress, DESTINATION])
    : undefined;
  await sendCoins(gateway('ethereum/sepolia'), publicAddress, 25n * 10n ** 16n);
  await expect
    .poll(
      async () => {
        const list = await request.get('/api/v1.0/token-forwarding/transaction', { headers });
        const [forward] = (await list.json()).data.tokenForwardingTransactions as Array<{ status: string }>;
        return forward?.status;
      },
      { timeout: 60_000 },
    )
    .toBe('COMPLETED');
  if (webhookId) await awaitActivityDelivered(request, headers, webhookId);
  admin('jobs', 'run', 'billing');
  // A call after the billing run opens a new record: Service Usage History shows a PENDING row too.
  // Another journey's billing run may bill it first, so each try makes one more call.
  await expect
    .poll(
      async () => {
        expect((await request.post(gateway('metabit/testnet'), { data: rpc('eth_chainId') })).status()).toBe(200);
        const usage = await request.get('/api/v1.0/usage/api/billing', { headers, params: { accountId, limit: 10 } });
        return ((await usage.json()).data.accountResourceUsage as Array<{ status: string }>).map((r) => r.status);
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toContain('PENDING');
  return { email, password, accountId, webhookId };
}

/** Adds a card on the Add Payment Card page, as a person would (the development card processor). */
export async function addCard(page: Page, account: SampleAccount, number: string) {
  await page.goto(`/account/${account.accountId}/billings/addPaymentCard`);
  await page.getByRole('button', { name: 'Add Card' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Payment Method' });
  await expect(dialog.getByRole('button', { name: 'Add' })).toBeEnabled();
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiry').fill('12/30');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.card-tile').filter({ hasText: number.slice(-4) })).toBeVisible();
}

export { logIn };
