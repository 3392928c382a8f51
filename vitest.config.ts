import { defineConfig } from 'vitest/config';

const MOCKING_SERVER_TESTS = [
  'apps/server/src/modules/forwarding/webhooks/webhook-target.test.ts',
  'apps/server/src/modules/forwarding/webhooks/webhook-delivery.test.ts',
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
          environment: 'jsdom',
          setupFiles: ['apps/web/src/testing/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
