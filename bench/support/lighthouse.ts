import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './page-scripts.ts';
import type { Cleanup } from './stack.ts';

export const CATEGORIES = ['performance', 'accessibility'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Audit {
  page: string;
  /** Scores out of 100, by category. */
  scores: Record<Category, number>;
  /** The page's lab metrics (FCP, LCP, TBT, CLS, Speed Index) as Lighthouse shows them. */
  metrics: string[];
  /** The audits that did not pass, with what they name, to know what to fix. */
  findings: string[];
}

/** A Lighthouse run of its own Chrome (chrome-launcher), driven by puppeteer-core to sign in. */
export interface Auditor {
  /** Lighthouse's version and the browser's, for the report. */
  version: string;
  browser: string;
  audit(url: string, label: string): Promise<Audit>;
  /** Signs in in this Chrome as a person would get signed in: the refresh cookie from the sign-in answer. */
  signIn(baseUrl: string, email: string, password: string): Promise<void>;
}

const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];

function findings(result: Result): string[] {
  const lines: string[] = [];
  for (const category of CATEGORIES) {
    for (const ref of result.categories[category]?.auditRefs ?? []) {
      const audit = result.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable') continue;
      const items = (
        audit.details as { items?: Array<{ node?: { snippet?: string; nodeLabel?: string } }> } | undefined
      )?.items;
      const nodes = (items ?? [])
        .map((item) => item.node?.snippet ?? item.node?.nodeLabel)
        .filter(Boolean)
        .slice(0, 5);
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      lines.push(
        `${category}: ${audit.id} score ${audit.score}${value}${nodes.length ? `: ${nodes.join(' | ')}` : ''}`,
      );
    }
  }
  return lines;
}

export async function startAuditor(cleanup: Cleanup): Promise<Auditor> {
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: [...CHROMIUM_FLAGS, '--headless=new'],
    logLevel: 'silent',
  });
  cleanup.add(async () => chrome.kill());
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  cleanup.add(() => browser.disconnect());
  const page: Page = await browser.newPage();
  // Lighthouse's storage reset (its default) empties the HTTP cache and leaves cookies and local
  // storage alone: every audited page is a first visit of a signed-in person.
  const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] };
  return {
    version: (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version,
    browser: `${await browser.version()} (${CHROMIUM})`,
    async signIn(baseUrl, email, password) {
      await page.goto(`${baseUrl}/login`, { waitUntil: 'load' });
      const status = await page.evaluate(
        async (body) =>
          (await fetch('/auth/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
            .status,
        JSON.stringify({ email, password }),
      );
      if (status !== 200) throw new Error(`sign-in in Lighthouse's Chrome answered HTTP ${status}`);
    },
    async audit(url, label) {
      const run = await lighthouse(url, flags, desktopConfig, page);
      if (!run) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = run;
      if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
      if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
        throw new Error(`Lighthouse audited ${lhr.finalDisplayedUrl}, not ${url}`);
      }
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => {
          const score = lhr.categories[c]?.score;
          if (score === null || score === undefined) throw new Error(`no ${c} score for ${url}`);
          return [c, Math.round(score * 100)];
        }),
      ) as Record<Category, number>;
      const metrics = METRICS.map((id) => `${lhr.audits[id]?.title ?? id} ${lhr.audits[id]?.displayValue ?? '?'}`);
      return { page: label, scores, metrics, findings: findings(lhr) };
    },
  };
}
