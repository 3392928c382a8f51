import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8181);
const root = path.resolve(import.meta.dirname, '..');
// A fresh embedded-default data directory each run: the journeys start from an empty product.
// Kept in the environment so test workers (which run the admin command line) see the same one.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'ebs-e2e-'));
process.env.E2E_PORT = String(PORT);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // A failed journey keeps its trace: each action's DOM before and after, the network and the
    // console. Not the screencast: encoding its frames took a third of the journeys' time on two cores.
    trace: { mode: 'retain-on-failure', screenshots: false },
    // The journeys check what the console does, not its animations, so they ask for less motion
    // (the console then opens menus and dialogs at once). On two busy cores, an opening menu could
    // look still for two frames and be clicked where an item was a moment before (a Sign out click
    // landed on the menu's divider).
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The built app, as `npm start` runs it (building the web app and the server when outdated).
    command: 'node scripts/start.mjs',
    cwd: root,
    url: `http://localhost:${PORT}/api/v1.0/config`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://localhost:${PORT}`,
      // The forwarding journey's webhook target listens on this machine, and its deposits should move quickly.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      FORWARDING_SCAN_SECONDS: '1',
      // The third-party sign-in journey starts its OpenID provider on E2E_PORT + 100 (e2e/openid-provider.ts).
      OIDC_SECOND_NAME: 'Test ID',
      OIDC_SECOND_ISSUER: `http://127.0.0.1:${PORT + 100}`,
      OIDC_SECOND_CLIENT_ID: 'ebs-console-e2e',
      OIDC_SECOND_CLIENT_SECRET: 'e2e-client-secret',
    },
  },
});
