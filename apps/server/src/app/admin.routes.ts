import { timingSafeEqual } from 'node:crypto';
import { AppError, badRequest, endpoints, forbidden } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { fromLoopbackSocket } from '../http/loopback.ts';
import { route } from '../http/route.ts';
import type { Jobs } from '../jobs/scheduler.ts';
import type { RpcGateway } from '../modules/rpc/index.ts';
import type { Secrets } from '../secrets.ts';
import { snapshotDatabase } from './backup-file.ts';
import { CommandError, runCommand } from './commands.ts';
import { forgetServer, recordServer } from './running-server.ts';

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** What adminRoutes is built from (the composition root hands it in). */
export interface AdminRoutesOptions {
  db: Db;
  secrets: Secrets;
  config: Config;
  jobs: Jobs;
  rpc: RpcGateway;
}

/**
 * The admin command line reaches PGlite through the running server (one data directory has one
 * owner): loopback only, with the token generated into DATA_DIR. The server records its process
 * and port in DATA_DIR while it listens, so the command line finds it and never opens the
 * directory beside it. Not registered with PostgreSQL, where the command line connects to the
 * database itself.
 */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (
  app,
  { db, secrets, config, jobs, rpc },
) => {
  if (config.DATABASE_URL) return;
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') await recordServer(config.dataDir, address.port);
  });
  app.addHook('onClose', () => forgetServer(config.dataDir));
  if (!secrets.adminToken) return;

  // Checked before the body is read, so a stranger learns nothing from validation messages.
  app.addHook('onRequest', async (req) => {
    const token = req.headers['x-admin-token'];
    if (!fromLoopbackSocket(req) || typeof token !== 'string' || !sameToken(token, secrets.adminToken)) {
      throw forbidden('Forbidden');
    }
  });

  route(app, endpoints.admin.command, {}, async (req) => {
    try {
      return await runCommand(db, req.body.args, jobs, rpc);
    } catch (error) {
      if (error instanceof CommandError) throw badRequest(error.message);
      if (error instanceof TypeError) throw new AppError('Bad Request', error.message);
      throw error;
    }
  });

  // The copy is taken here, by the owner of the data directory; the command line writes the file.
  route(app, endpoints.admin.backup, {}, async (_req, reply) => {
    const { database, migration } = await snapshotDatabase(db);
    return reply.header('content-type', 'application/gzip').header('x-backup-migration', migration).send(database);
  });
};
