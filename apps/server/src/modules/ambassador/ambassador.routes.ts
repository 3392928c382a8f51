import { endpoints, Messages, notFound } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/database.ts';
import { requireCaller } from '../../http/guards.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { findAmbassador } from './ambassador.store.ts';

/** What ambassadorRoutes is built from (the composition root hands it in). */
export interface AmbassadorRoutesOptions {
  db: Db;
}

export const ambassadorRoutes: FastifyPluginAsyncTypebox<AmbassadorRoutesOptions> = async (app, { db }) => {
  // The signed-in user's own card (spec B §7); someone who is not an ambassador has none.
  route(app, endpoints.ambassador.own, {}, async (req) => {
    const ambassador = await findAmbassador(db, requireCaller(req).userId);
    if (!ambassador) throw notFound(Messages.notAnAmbassador);
    return ok(ambassador);
  });
};
