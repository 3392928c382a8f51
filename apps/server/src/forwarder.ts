import Fastify from 'fastify';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { memoryRateLimiter } from './http/rate-limit.ts';
import { outboxMailer, smtpMailer } from './mail/mailer.ts';
import { gatewayAccounts } from './modules/accounts/index.ts';
import { buildForwarding } from './modules/forwarding/index.ts';
import { buildNotify } from './modules/notify/index.ts';
import { RpcGateway } from './modules/rpc/index.ts';
import { loadSecrets } from './secrets.ts';

/**
 * The chain engines as a process of their own (`npm run forwarder`), for production on PostgreSQL:
 * token forwarding with its webhooks, and the address-activity webhooks' scanners and deliveries.
 * Run any number beside the servers (started with FORWARDING_ENGINE=off and NOTIFY_ENGINE=off):
 * each deposit is still forwarded once, each block's activity delivered once.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    throw new ConfigError(
      'The forwarding engine runs as its own process only on PostgreSQL (DATABASE_URL); the embedded default runs it inside the server.',
    );
  }
  // Fastify's logger, without a server: the same log format and redaction as the server's.
  const log = Fastify({ logger: { level: config.LOG_LEVEL } }).log;
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  await migrateToLatest(db);
  const secrets = await loadSecrets(config);
  const mailer = config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, log);
  const rpc = new RpcGateway(db, config, log, memoryRateLimiter(), gatewayAccounts);
  const { engine, chains } = buildForwarding({ db, config, secrets, rpc, mailer, log });
  engine.start(config.FORWARDING_SCAN_SECONDS);
  log.info({ owner: engine.owner }, 'token forwarding engine started');
  const notify = buildNotify({ db, config, secrets, chains, mailer, log }).engine;
  notify.start(config.NOTIFY_POLL_MS);
  log.info({ owner: notify.owner }, 'address-activity engine started');
  const stop = async () => {
    await engine.stop();
    await notify.stop();
    await rpc.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
