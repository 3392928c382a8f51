import { endpoints } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { findSetting } from './settings.store.ts';

export const settingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db }) => {
  route(app, endpoints.settings.read, {}, async (req) => {
    const setting = await findSetting(db, req.query.name);
    if (!setting) throw notFound(`Setting ${req.query.name} not found`);
    return ok(setting);
  });
};
