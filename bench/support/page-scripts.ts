import { gzipSync } from 'node:zlib';
import { Messages } from '@ebs/contract';
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import type { Cleanup } from './stack.ts';
import type { WebRoute } from './web-routes.ts';

/** Debian's Chromium with the flags every browser of the project runs with (e2e/playwright.config.ts). */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RouteScripts {
  route: WebRoute;
  /** Every JavaScript file the page requested, with its size decoded and gzipped at level 9. */
  files: Array<{ url: string; bytes: number; gzipBytes: number }>;
  gzipKb: number;
  rawKb: number;
}

export async function launchChromium(cleanup: Cleanup): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  cleanup.add(() => browser.close());
  return browser;
}

/** A browser context signed in as the user: the refresh cookie, set by the server's own sign-in answer. */
export async function signedInContext(browser: Browser, baseUrl: string, email: string, password: string) {
  const context = await browser.newContext();
  const answer = await context.request.post(`${baseUrl}/auth/sign-in`, { data: { email, password } });
  if (answer.status() !== 200) throw new Error(`sign-in answered HTTP ${answer.status()}: ${await answer.text()}`);
  return context;
}

const isScript = (url: string, contentType: string | undefined) =>
  /javascript/.test(contentType ?? '') || /\.m?js$/.test(new URL(url).pathname);

/**
 * Opens the route in a fresh page with the HTTP cache off, as a first visit, waits until the
 * network has been quiet for 500 ms (the route's lazy chunks and the components its data shows
 * are loaded by then), and sums the JavaScript it requested. The figure is each file's bytes
 * gzipped here at level 9, whatever encoding the server sent it in (Brotli where the build wrote a
 * copy): comparable across builds and servers. Files a page takes from the memory cache count too.
 */
export async function routeScripts(context: BrowserContext, baseUrl: string, route: WebRoute): Promise<RouteScripts> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const pending: Array<Promise<RouteScripts['files'][number] | undefined>> = [];
    page.on('response', (response) => {
      if (!isScript(response.url(), response.headers()['content-type'])) return;
      pending.push(
        response.body().then((body) => ({
          url: response.url(),
          bytes: body.length,
          gzipBytes: gzipSync(body, { level: 9 }).length,
        })),
      );
    });
    await page.goto(baseUrl + route.path, { waitUntil: 'networkidle', timeout: 30_000 });
    const landed = new URL(page.url()).pathname;
    if (landed !== route.lands) throw new Error(`${route.path} ended on ${landed}, not ${route.lands}`);
    if (await page.getByText(Messages.somethingWentWrong).count()) throw new Error(`${route.path} showed an error`);
    const seen = new Map<string, RouteScripts['files'][number]>();
    for (const file of await Promise.all(pending)) if (file) seen.set(file.url, file);
    const files = [...seen.values()];
    if (files.length === 0) throw new Error(`${route.path} loaded no JavaScript`);
    const sum = (key: 'bytes' | 'gzipBytes') => files.reduce((total, f) => total + f[key], 0) / 1024;
    return { route, files, gzipKb: sum('gzipBytes'), rawKb: sum('bytes') };
  } finally {
    await page.close();
  }
}
