import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CommandError, runCommand } from '../../cli/commands.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, forbidden } from '../../http/errors.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The admin command line reaches PGlite through the running server (one data directory has one
 * owner): loopback only, with the token generated into DATA_DIR. Not registered with PostgreSQL,
 * where the command line connects to the database itself.
 */
export const adminRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db, secrets, config, jobs }) => {
  if (config.DATABASE_URL || !secrets.adminToken) return;
  app.post(
    '/admin/command',
    {
      schema: {
        hide: true,
        body: Type.Object({ args: Type.Array(Type.String({ maxLength: 500 }), { maxItems: 20 }) }),
      },
    },
    async (req) => {
      const token = req.headers['x-admin-token'];
      if (
        !LOOPBACK.has(req.socket.remoteAddress ?? '') ||
        typeof token !== 'string' ||
        !sameToken(token, secrets.adminToken)
      ) {
        throw forbidden('Forbidden');
      }
      try {
        return await runCommand(db, req.body.args, jobs);
      } catch (error) {
        if (error instanceof CommandError) throw badRequest(error.message);
        if (error instanceof TypeError) throw new AppError(400, error.message, 'Bad Request');
        throw error;
      }
    },
  );
};
