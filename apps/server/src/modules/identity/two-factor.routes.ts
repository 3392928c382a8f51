import { MfaDisableBody, MfaEnableBody, MfaSetup, MfaStatus } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { authenticate, requireCaller } from '../../http/guards.ts';
import { noBody, ok, responses } from '../../http/reply.ts';

/**
 * Turning two-factor sign-in on and off, for the signed-in user. The second step of sign-in itself
 * is POST /auth/sign-in/mfa, beside sign-in in identity.routes.ts.
 */
export const twoFactorRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { twoFactor, db, tokens }) => {
  const tags = ['identity'];
  const signedIn = async (req: FastifyRequest) => {
    req.caller = await authenticate(req, db, tokens);
  };

  app.post(
    '/auth/mfa/setup',
    { schema: { tags, response: responses(MfaSetup) }, onRequest: signedIn, preValidation: noBody },
    async (req, reply) => {
      const caller = requireCaller(req);
      // The one answer that carries the secret: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return ok(await twoFactor.setup(caller.userId, caller.email));
    },
  );

  app.post(
    '/auth/mfa/enable',
    { schema: { tags, body: MfaEnableBody, response: responses(MfaStatus) }, onRequest: signedIn },
    async (req, reply) => {
      const recoveryCodes = await twoFactor.enable(requireCaller(req).userId, req.body.code, req.ip);
      reply.header('cache-control', 'no-store');
      return ok({ mfaEnabled: true, recoveryCodes });
    },
  );

  app.post(
    '/auth/mfa/disable',
    { schema: { tags, body: MfaDisableBody, response: responses(MfaStatus) }, onRequest: signedIn },
    async (req) => {
      await twoFactor.disable(requireCaller(req).userId, req.body.code, req.ip);
      return ok({ mfaEnabled: false });
    },
  );
};
