import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import journeys from '../playwright.config.ts';

/**
 * Takes the screenshots of docs/screens/: every route at 1440 × 900 and 390 × 844, from a fresh
 * product filled with sample data. Run with `npx playwright test -c e2e/screens/playwright.config.ts`.
 */
const PORT = Number(process.env.E2E_SCREENS_PORT ?? 8291);
// Its own fresh data directory, kept in the environment so that test workers (which load this file
// again and run the admin command line) see the same one.
process.env.E2E_SCREENS_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'ebs-screens-'));
process.env.E2E_DATA_DIR = process.env.E2E_SCREENS_DATA_DIR;
process.env.E2E_PORT = String(PORT);
const baseURL = `http://localhost:${PORT}`;
const server = journeys.webServer as Exclude<typeof journeys.webServer, unknown[] | undefined>;

export default defineConfig({
  ...journeys,
  testDir: '.',
  testMatch: '*.screens.ts',
  timeout: 600_000,
  workers: 1,
  use: { ...journeys.use, baseURL, trace: 'off' },
  webServer: {
    ...server,
    url: `${baseURL}/api/v1.0/config`,
    env: {
      ...server.env,
      PORT: String(PORT),
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_URL: baseURL,
      OIDC_SECOND_ISSUER: `http://127.0.0.1:${PORT + 100}`,
    },
  },
});
