import path from 'node:path';

/** Where the run's build of the server is (testing/global-setup.ts), when it made one. */
export const SERVER_BUILD_ENV = 'EBS_TEST_SERVER_BUILD';

const SOURCES = {
  main: path.join(import.meta.dirname, '../main.ts'),
  admin: path.join(import.meta.dirname, '../cli/admin.ts'),
} as const;

/**
 * The node arguments that run one of the server's entries as its own process: the run's build, as
 * `npm start` and the admin command run it (a second and more faster to start than loading the
 * TypeScript), or the sources through tsx when a test file runs without the global setup.
 */
export function serverCommand(entry: keyof typeof SOURCES): string[] {
  const built = process.env[SERVER_BUILD_ENV];
  return built ? [path.join(built, `${entry}.mjs`)] : ['--import', 'tsx', SOURCES[entry]];
}
