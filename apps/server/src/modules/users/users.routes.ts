import { ReferralCodeQuery, ReferralCodeResult, UserInfo } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { unauthorized } from '../../http/errors.ts';
import { requireCaller } from '../../http/guards.ts';
import { addressKey, enforce } from '../../http/rate-limit.ts';
import { ok, responses } from '../../http/reply.ts';
import { referralCodeExists } from '../identity/identity.service.ts';
import { findUserInfo } from './users.service.ts';

export const userRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db, limiter }) => {
  const tags = ['users'];

  app.get('/api/v1.0/user', { schema: { tags, response: responses(UserInfo) } }, async (req) => {
    const info = await findUserInfo(db, requireCaller(req).userId);
    if (!info) throw unauthorized();
    return ok(info);
  });

  // Public: the sign-up page checks a referral code before the user exists. Limited per IP against guessing.
  app.get(
    '/api/v1.0/user/checkIsValidCode',
    {
      config: { public: true },
      schema: { tags, querystring: ReferralCodeQuery, response: responses(ReferralCodeResult) },
    },
    async (req) => {
      await enforce(limiter, [[`referral:ip:${addressKey(req.ip)}`, { limit: 60, windowSeconds: 60 }]]);
      return ok({ isValidCode: await referralCodeExists(db, req.query.referralCode.trim().toUpperCase()) });
    },
  );
};
