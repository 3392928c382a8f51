import { MfaDisableBody, MfaEnableBody, MfaSetup, MfaStatus } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { requireCaller } from '../../http/guards.ts';
import { addressKey } from '../../http/rate-limit.ts';
import { noBody, ok, responses } from '../../http/reply.ts';

/**
 * Turning two-factor sign-in on and off, for the signed-in user. The second step of sign-in itself
 * is POST /auth/sign-in/mfa, beside sign-in in identity.routes.ts.
 */
export const twoFactorRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { twoFactor }) => {
  const tags = ['identity'];

  app.post(
    '/auth/mfa/setup',
    { schema: { tags, response: responses(MfaSetup) }, preValidation: noBody },
    async (req, reply) => {
      const caller = requireCaller(req);
      // The one answer that carries the secret: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return ok(await twoFactor.setup(caller.userId, caller.email));
    },
  );

  app.post(
    '/auth/mfa/enable',
    { schema: { tags, body: MfaEnableBody, response: responses(MfaStatus) } },
    async (req, reply) => {
      const recoveryCodes = await twoFactor.enable(requireCaller(req).userId, req.body.code, addressKey(req.ip));
      reply.header('cache-control', 'no-store');
      return ok({ mfaEnabled: true, recoveryCodes });
    },
  );

  app.post(
    '/auth/mfa/disable',
    { schema: { tags, body: MfaDisableBody, response: responses(MfaStatus) } },
    async (req) => {
      await twoFactor.disable(requireCaller(req).userId, req.body.code, addressKey(req.ip));
      return ok({ mfaEnabled: false });
    },
  );
};
