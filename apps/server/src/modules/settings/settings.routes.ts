import { endpoints, notFound } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/database.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { findSetting } from './settings.store.ts';

/** What settingRoutes is built from (the composition root hands it in). */
export interface SettingRoutesOptions {
  db: Db;
}

export const settingRoutes: FastifyPluginAsyncTypebox<SettingRoutesOptions> = async (app, { db }) => {
  route(app, endpoints.settings.read, {}, async (req) => {
    const setting = await findSetting(db, req.query.name);
    if (!setting) throw notFound(`Setting ${req.query.name} not found`);
    return ok(setting);
  });
};
