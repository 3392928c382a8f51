import { endpoints, unauthorized } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/database.ts';
import { requireCaller } from '../../http/guards.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { addressKey, enforce } from '../../http/rate-limit.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { referralCodeExists } from '../ambassador/index.ts';
import { findUserInfo } from './users.service.ts';

/** What userRoutes is built from (the composition root hands it in). */
export interface UserRoutesOptions {
  db: Db;
  limiter: RateLimiter;
}

export const userRoutes: FastifyPluginAsyncTypebox<UserRoutesOptions> = async (app, { db, limiter }) => {
  const { users } = endpoints;

  route(app, users.info, {}, async (req) => {
    const info = await findUserInfo(db, requireCaller(req).userId);
    if (!info) throw unauthorized();
    return ok(info);
  });

  route(app, users.checkReferralCode, {}, async (req) => {
    await enforce(limiter, [[`referral:ip:${addressKey(req.ip)}`, { limit: 60, windowSeconds: 60 }]]);
    return ok({ isValidCode: await referralCodeExists(db, req.query.referralCode.trim().toUpperCase()) });
  });
};
