import { buildApp } from './app/app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { startScheduler } from './jobs/scheduler.ts';

/** Start: configuration → database → app → listen; stop cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { app, deps } = await buildApp(config);
  const settled = await deps.deposits.reconcile();
  if (settled > 0) app.log.warn({ settled }, 'settled deposits left pending by an earlier stop');
  const stopJobs = startScheduler(deps.jobs, app.log, config.JOBS_INTERVAL_SECONDS);
  if (config.FORWARDING_ENGINE === 'on') deps.forwarding.engine.start(config.FORWARDING_SCAN_SECONDS);
  if (config.NOTIFY_ENGINE === 'on') deps.notify.engine.start(config.NOTIFY_POLL_MS);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    stopJobs();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  app.log.info(`console ready at http://localhost:${port}`);
  console.log(`\n  ${config.PRODUCT_NAME} is running at http://localhost:${port}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
