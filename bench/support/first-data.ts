import type { Browser, BrowserContext } from '@playwright/test';

/** The connection the first-paint figure is measured over (the budget: 40 ms RTT, 10 Mbit/s). */
export const THROTTLE = { latencyMs: 40, mbitPerSecond: 10 };

export interface FirstCalls {
  /** When the first call for data (/auth/ or /api/) started, in ms after the navigation began. */
  firstDataMs: number;
  /** When the first call for the account's own data (an /api/ call other than the configuration) started. */
  firstAccountDataMs: number | null;
}

/**
 * Opens `url` in a fresh context holding `signedIn`'s cookies and storage (a returning user), with
 * the HTTP cache off and the connection throttled, as a cold first load; reads the requests' start
 * times from the page's resource timing once the network has been quiet. `blockBoot` leaves out the
 * page's early start (public/boot.js), for the figure without it beside the one with it.
 */
export async function firstDataCalls(
  browser: Browser,
  signedIn: BrowserContext,
  url: string,
  blockBoot = false,
): Promise<FirstCalls> {
  const context = await browser.newContext({ storageState: await signedIn.storageState() });
  try {
    const page = await context.newPage();
    if (blockBoot) await page.route('**/boot.js', (route) => route.abort());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const bytesPerSecond = (THROTTLE.mbitPerSecond * 1_000_000) / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: THROTTLE.latencyMs,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const calls = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime }))
        .filter((call) => call.path.startsWith('/api/') || call.path.startsWith('/auth/'))
        .sort((a, b) => a.start - b.start),
    );
    const first = calls[0];
    if (!first) throw new Error(`no data call was made loading ${url}`);
    const account = calls.find((call) => call.path.startsWith('/api/') && call.path !== '/api/v1.0/config');
    return { firstDataMs: first.start, firstAccountDataMs: account?.start ?? null };
  } finally {
    await context.close();
  }
}
