import { Setting, SettingQuery } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { ok, responses } from '../../http/reply.ts';
import { findSetting } from './settings.store.ts';

export const settingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db }) => {
  app.get(
    '/api/v1.0/setting',
    { schema: { tags: ['settings'], querystring: SettingQuery, response: responses(Setting) } },
    async (req) => {
      const setting = await findSetting(db, req.query.name);
      if (!setting) throw notFound(`Setting ${req.query.name} not found`);
      return ok(setting);
    },
  );
};
