import { expect, type Locator } from '@playwright/test';
import { serveDapp } from './dapp/serve-dapp.ts';
import { test } from './fixtures.ts';
import {
  admin,
  chooseOption,
  copyShownKey,
  createAccountOverApi,
  expectToastShown,
  logIn,
  recordToasts,
  signUpOverApi,
} from './support.ts';

const NETWORK = 'ethereum/mainnet';

/** Adds one entry to a rule list of the key's drawer by typing it, as the user would. */
async function addEntry(drawer: Locator, label: string, entry: string, button: string) {
  await drawer.getByLabel(label, { exact: true }).fill(entry);
  await drawer.getByRole('button', { name: button }).click();
  await expect(drawer.getByText(entry, { exact: true })).toBeVisible();
}

/**
 * A customer puts a key in a dapp's web page and locks it down: the key may be used only from the
 * dapp's origin and only for eth_blockNumber. The page, served from its origin, reads the block
 * number with viem in the browser; the same page served from another origin is refused with the
 * reason, and so is another method. Then the key is rolled with an hour's overlap: the old and the
 * new secret both work; rolled again with none, only the newest does.
 */
test('a key locked to an origin and a method, called with viem from a web page, rolled without downtime', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const dapp = await serveDapp();
  try {
    await recordToasts(page);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { email, password } = await signUpOverApi(request);
    const accountId = await createAccountOverApi(request, email, password, 'Dapp builder');
    admin('deposit', '--account', accountId, '--amount', '10', '--note', 'journey credit');

    await logIn(page, email, password);
    await page.getByRole('row', { name: /Dapp builder/ }).click();
    await page.getByRole('menuitem', { name: 'API Keys' }).click();
    await page.getByRole('button', { name: 'Generate New API Keys' }).click();
    const create = page.getByRole('dialog', { name: 'Create API Key' });
    await create.getByLabel('API Key Name').fill('Dapp key');
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    const first = await copyShownKey(page);

    // Lock it down in the key's drawer.
    const allowedOrigin = `http://localhost:${dapp.port}`;
    const otherOrigin = `http://127.0.0.1:${dapp.port}`;
    await page
      .getByRole('row', { name: /Dapp key/ })
      .getByRole('button', { name: 'Security' })
      .click();
    const drawer = page.getByRole('dialog', { name: 'Dapp key' });
    await expect(drawer.getByText('Any origin')).toBeVisible();
    await addEntry(drawer, 'Allowed origins', allowedOrigin, 'Add origin');
    await drawer.getByLabel('Allowed methods', { exact: true }).fill('eth_blockNumber');
    await drawer.getByLabel('Allowed methods', { exact: true }).press('Enter');
    await expect(drawer.locator('.ant-select-selection-item', { hasText: 'eth_blockNumber' })).toBeVisible();
    await drawer.getByRole('button', { name: 'Save' }).click();
    await expectToastShown(page, 'API key security settings have been saved.');

    const rpcUrl = (key: string) =>
      `${baseURL}/api/v1.0/rpc/${NETWORK}?x-api-key-id=${first.keyId}&x-api-key=${encodeURIComponent(key)}`;
    const dappPage = await context.newPage();
    const callFrom = async (origin: string, key: string, call: 'blockNumber' | 'balance') => {
      if (!dappPage.url().startsWith(origin)) await dappPage.goto(`${origin}/`);
      return dappPage.evaluate(
        ([url, what]) =>
          (window as unknown as { callGateway(u: string, w: string): Promise<string> }).callGateway(url, what),
        [rpcUrl(key), call] as const,
      );
    };

    // From another origin: refused, and the page shows why (the change reaches the gateway within a second).
    await expect
      .poll(() => callFrom(otherOrigin, first.key, 'blockNumber'))
      .toContain(`origin ${otherOrigin} is not allowed for this key`);
    await expect(dappPage.locator('#answer')).toContainText('is not allowed for this key');
    // From the dapp's origin: the block number; another method is refused with its name.
    expect(await callFrom(allowedOrigin, first.key, 'blockNumber')).toMatch(/^ok \d+$/);
    expect(await callFrom(allowedOrigin, first.key, 'balance')).toContain(
      'method eth_getBalance is not allowed for this key',
    );

    // Roll with an hour's overlap: the old and the new secret both work.
    await page.bringToFront();
    await drawer.getByRole('button', { name: 'Roll key' }).click();
    const roll = page.getByRole('dialog', { name: 'Roll API Key' });
    await chooseOption(page, 'Old secret stays valid for', '1 hour');
    await roll.getByRole('button', { name: 'Roll key' }).click();
    await expectToastShown(page, 'A new secret has been made for this API key.');
    const second = await copyShownKey(page);
    expect(second.keyId).toBe(first.keyId);
    expect(second.key).not.toBe(first.key);
    await expect.poll(() => callFrom(allowedOrigin, second.key, 'blockNumber')).toMatch(/^ok \d+$/);
    expect(await callFrom(allowedOrigin, first.key, 'blockNumber')).toMatch(/^ok \d+$/);

    // Rolled again with no overlap: the overlap of the secret before ends at once, only the newest works.
    await page.bringToFront();
    await drawer.getByRole('button', { name: 'Roll key' }).click();
    await chooseOption(page, 'Old secret stays valid for', 'None');
    await roll.getByRole('button', { name: 'Roll key' }).click();
    const third = await copyShownKey(page);
    await expect
      .poll(() => callFrom(allowedOrigin, second.key, 'blockNumber'))
      .toContain('The API key id or API key is not valid.');
    expect(await callFrom(allowedOrigin, first.key, 'blockNumber')).toContain(
      'The API key id or API key is not valid.',
    );
    expect(await callFrom(allowedOrigin, third.key, 'blockNumber')).toMatch(/^ok \d+$/);
  } finally {
    await dapp.close();
  }
});
