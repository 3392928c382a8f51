import Fastify from 'fastify';
import { buildCardProvider } from '../app/card-providers.ts';
import { CommandError, type CommandResult, HELP, runCommand } from '../app/commands.ts';
import { buildJobs } from '../app/job-registry.ts';
import { commandThroughServer, runningServer } from '../app/running-server.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { memoryRateLimiter } from '../http/rate-limit.ts';
import { outboxMailer, smtpMailer } from '../mail/mailer.ts';
import { gatewayAccounts } from '../modules/accounts/index.ts';
import { buildForwarding } from '../modules/forwarding/index.ts';
import { RpcGateway } from '../modules/rpc/index.ts';
import { loadSecrets, secretsFile } from '../secrets.ts';
import { runBackupCommand } from './backup.ts';

/** Runs one admin command: on PostgreSQL directly; on PGlite through the running server, or directly when none runs. */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const json = argv.includes('--json');
  const config = loadConfig();
  let result: CommandResult | undefined;
  if (argv[0] === 'backup' || argv[0] === 'restore') result = await runBackupCommand(config, argv);
  else if (!config.DATABASE_URL) {
    // The token goes only to the port the running server recorded: whatever listens on PORT may
    // be another program, and would be handed the key to every admin command.
    const server = await runningServer(config.dataDir);
    if (server) result = await commandThroughServer(server.port, secretsFile(config), argv);
    if (!result && server) {
      throw new CommandError(
        `The server that owns ${config.dataDir} (process ${server.pid}) takes no admin commands with its token; stop it to run the command`,
      );
    }
  }
  if (!result && argv[0] === 'rpc' && argv[1] === 'cache') {
    // A process of its own would show its own empty cache.
    throw new CommandError(
      config.DATABASE_URL
        ? 'The response cache lives in each server process: with DATABASE_URL each one logs its figures every 10 minutes ("RPC cache")'
        : 'No server is running: the response cache lives in the running server',
    );
  }
  if (!result && argv[0] === 'rpc' && argv[1] === 'insight') {
    throw new CommandError(
      config.DATABASE_URL
        ? 'The switch lives in each server process: with DATABASE_URL set RPC_INSIGHT and restart them'
        : 'No server is running: RPC_INSIGHT sets the switch at start',
    );
  }
  if (!result && argv[0] === 'rpc' && argv[1] === 'subscriptions') {
    throw new CommandError(
      config.DATABASE_URL
        ? 'Subscriptions live in each server process: with DATABASE_URL this command cannot reach them'
        : 'No server is running: subscriptions live in the running server',
    );
  }
  if (!result) {
    const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
    try {
      await migrateToLatest(db);
      const mailer = config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, consoleLog);
      // Chain access for the forwarding job and the faucet: local nodes start on first use, and stop below.
      const log = Fastify({ logger: { level: 'warn' } }).log;
      const rpc = new RpcGateway(db, config, log, memoryRateLimiter(), gatewayAccounts);
      const forwarding = buildForwarding({ db, config, secrets: await loadSecrets(config), rpc, mailer, log });
      const jobs = buildJobs({
        db,
        config,
        provider: (await buildCardProvider(config, db)).provider,
        mailer,
        forwarding: () => forwarding.engine.tick(),
        webhooks: forwarding.deliverWebhooks,
      });
      try {
        result = await runCommand(db, argv, jobs, rpc);
      } finally {
        await forwarding.engine.stop();
        await rpc.close();
      }
    } finally {
      await db.destroy();
    }
  }
  console.log(json ? JSON.stringify(result.json, null, 2) : result.text);
  return 0;
}

const consoleLog = { info: (_fields: object, message: string) => console.error(message) };

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof CommandError || error instanceof TypeError ? error.message : error);
    process.exit(1);
  },
);
