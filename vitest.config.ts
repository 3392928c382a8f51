import { defineConfig } from 'vitest/config';

const MOCKING_SERVER_TESTS = [
  'apps/server/src/modules/forwarding/webhooks/webhook-target.test.ts',
  'apps/server/src/modules/forwarding/webhooks/webhook-delivery.test.ts',
];

/**
 * Web test files that replace a module for themselves (vi.mock), or keep antd's stylesheet (which
 * antd injects once per module instance): they need modules of their own.
 */
const ISOLATED_WEB_TESTS = [
  'apps/web/src/app/app-root.test.tsx',
  'apps/web/src/features/cards/add-card-dialog.stripe.test.tsx',
  'apps/web/src/features/identity/resend-code-link.test.tsx',
  'apps/web/src/features/overview/overview-page.test.tsx',
  'apps/web/src/features/overview/usage-chart-card.test.tsx',
  'apps/web/src/session/token-renewal.test.ts',
];

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'checks', include: ['scripts/checks/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          // These replace a Node module (DNS) for the file: they need modules of their own.
          exclude: MOCKING_SERVER_TESTS,
          environment: 'node',
          pool: 'forks',
          // A server test file builds its own app, databases and servers; the modules it imports
          // hold no state between files, so a worker evaluates them once instead of per file.
          isolate: false,
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-isolated',
          include: MOCKING_SERVER_TESTS,
          environment: 'node',
          pool: 'forks',
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          exclude: ISOLATED_WEB_TESTS,
          environment: 'jsdom',
          setupFiles: ['apps/web/src/testing/setup.ts'],
          testTimeout: 30_000,
          // Each file gets a fresh jsdom window and its setup, but a worker loads antd, React and the
          // app's modules once instead of per file (most of a page test file's time was that load).
          isolate: false,
        },
      },
      {
        test: {
          name: 'web-isolated',
          include: ISOLATED_WEB_TESTS,
          environment: 'jsdom',
          setupFiles: ['apps/web/src/testing/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
