import { Cleanup } from './stack.ts';

/**
 * Runs a suite's main: everything it started is undone on success, failure and Ctrl-C alike, and
 * the process ends with main's exit code (1 when it threw: its figures could not be measured).
 */
export function runSuite(main: (cleanup: Cleanup) => Promise<number>): void {
  const cleanup = new Cleanup();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`${signal}: stopping\n`);
      void cleanup.run().then(() => process.exit(130));
    });
  }
  main(cleanup)
    .catch((error: unknown) => {
      console.error(`\n!!! BENCHMARK FAILED !!!\n${error instanceof Error ? (error.stack ?? error.message) : error}`);
      return 1;
    })
    .then(async (code) => {
      await cleanup.run();
      process.exit(code);
    });
}
