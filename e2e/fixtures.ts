import { type APIRequestContext, test as base, type PlaywrightWorkerArgs } from '@playwright/test';

/**
 * The journeys' API client, opening one connection per request. A pooled keep-alive connection
 * left idle while the browser works is closed by the server's keep-alive timer (72 s), and on a
 * busy machine the next request can be written on it just as it closes (ECONNRESET). Browsers
 * resend such a request; Playwright's API client does not, so the journeys keep no idle connection.
 */
export function apiClient(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined) {
  return playwright.request.newContext({ baseURL, extraHTTPHeaders: { connection: 'close' } });
}

/** Playwright's test, with `request` built by apiClient. */
export const test = base.extend<{ request: APIRequestContext }>({
  request: async ({ playwright, baseURL }, use) => {
    const request = await apiClient(playwright, baseURL);
    await use(request);
    await request.dispose();
  },
});
