import { endpoints } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireCaller } from '../../http/guards.ts';
import { addressKey } from '../../http/rate-limit.ts';
import { noBody, ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import type { TwoFactorService } from './two-factor.service.ts';

/** What twoFactorRoutes is built from (the composition root hands it in). */
export interface TwoFactorRoutesOptions {
  twoFactor: TwoFactorService;
}

/**
 * Turning two-factor sign-in on and off, for the signed-in user. The second step of sign-in itself
 * is POST /auth/sign-in/mfa, beside sign-in in identity.routes.ts.
 */
export const twoFactorRoutes: FastifyPluginAsyncTypebox<TwoFactorRoutesOptions> = async (app, { twoFactor }) => {
  const { setupMfa, enableMfa, disableMfa } = endpoints.identity;

  route(app, setupMfa, { preValidation: noBody }, async (req, reply) => {
    const caller = requireCaller(req);
    // The one answer that carries the secret: no cache may keep it.
    reply.header('cache-control', 'no-store');
    return ok(await twoFactor.setup(caller.userId, caller.email));
  });

  route(app, enableMfa, {}, async (req, reply) => {
    const recoveryCodes = await twoFactor.enable(requireCaller(req).userId, req.body.code, addressKey(req.ip));
    reply.header('cache-control', 'no-store');
    return ok({ mfaEnabled: true, recoveryCodes });
  });

  route(app, disableMfa, {}, async (req) => {
    await twoFactor.disable(requireCaller(req).userId, req.body.code, addressKey(req.ip));
    return ok({ mfaEnabled: false });
  });
};
