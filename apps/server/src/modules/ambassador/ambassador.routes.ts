import { endpoints, Messages } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { requireCaller } from '../../http/guards.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { findAmbassador } from './ambassador.store.ts';

export const ambassadorRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db }) => {
  // The signed-in user's own card (spec B §7); someone who is not an ambassador has none.
  route(app, endpoints.ambassador.own, {}, async (req) => {
    const ambassador = await findAmbassador(db, requireCaller(req).userId);
    if (!ambassador) throw notFound(Messages.notAnAmbassador);
    return ok(ambassador);
  });
};
