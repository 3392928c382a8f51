import { endpoints } from '@ebs/contract';
// The cookie plugin's request and reply fields (the app registers the plugin).
import type {} from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { type Config, cookieSecure } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { requireCaller } from '../../http/guards.ts';
import { addressKey } from '../../http/rate-limit.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import type { IdentityProvider, SignedIn } from './identity.service.ts';
import { authenticate } from './request-callers.ts';
import type { IdTokens } from './tokens.ts';

export const REFRESH_COOKIE = 'ebs_refresh';
const SIGN_UP_COOKIE = 'ebs_sign_up';
/** The refresh cookie travels only to the identity routes, never to the API or to scripts. */
const COOKIE_PATH = '/auth';

/** The refresh cookie's attributes, shared with third-party sign-in so both set it the same way. */
export const refreshCookieOptions = (config: Config) => ({
  path: COOKIE_PATH,
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: cookieSecure(config),
});

/** What identityRoutes is built from (the composition root hands it in). */
export interface IdentityRoutesOptions {
  identity: IdentityProvider;
  config: Config;
  db: Db;
  tokens: IdTokens;
}

export const identityRoutes: FastifyPluginAsyncTypebox<IdentityRoutesOptions> = async (
  app,
  { identity, config, db, tokens },
) => {
  const {
    signUp,
    confirmSignUp,
    resendCode,
    signIn,
    answerMfaChallenge,
    refresh,
    signOut,
    forgotPassword,
    confirmForgotPassword,
    changePassword,
  } = endpoints.identity;
  const cookieOptions = refreshCookieOptions(config);
  const signedIn = (reply: FastifyReply, result: SignedIn) => {
    reply.setCookie(REFRESH_COOKIE, result.refreshToken, {
      ...cookieOptions,
      maxAge: config.REFRESH_TOKEN_TTL_SECONDS,
    });
    return result.session;
  };
  const done = ok({ result: 'SUCCESS' as const });

  route(app, signUp, {}, async (req, reply) => {
    const { result, signUpToken } = await identity.signUp(req.body, addressKey(req.ip));
    // Names this sign-up to its confirmation from the same browser (IdentityService.confirmSignUp).
    reply.setCookie(SIGN_UP_COOKIE, signUpToken, {
      ...cookieOptions,
      path: confirmSignUp.path,
      maxAge: config.SIGN_UP_CODE_TTL_SECONDS,
    });
    return ok(result);
  });

  route(app, confirmSignUp, {}, async (req, reply) =>
    ok({
      result: 'SUCCESS' as const,
      ...signedIn(
        reply,
        await identity.confirmSignUp(req.body, addressKey(req.ip), req.cookies[SIGN_UP_COOKIE] || undefined),
      ),
    }),
  );

  route(app, resendCode, {}, async (req) => ok(await identity.resendCode(req.body, addressKey(req.ip))));

  route(app, signIn, {}, async (req, reply) => {
    const result = await identity.signIn(req.body, addressKey(req.ip));
    // With two-factor sign-in on, the password alone opens no session: no cookie before the code.
    return ok('refreshToken' in result ? signedIn(reply, result) : result);
  });

  route(app, answerMfaChallenge, {}, async (req, reply) =>
    ok(signedIn(reply, await identity.answerMfaChallenge(req.body, addressKey(req.ip)))),
  );

  route(app, refresh, {}, async (req, reply) => {
    try {
      return ok(signedIn(reply, await identity.refresh(req.cookies[REFRESH_COOKIE])));
    } catch (error) {
      reply.clearCookie(REFRESH_COOKIE, cookieOptions);
      throw error;
    }
  });

  route(app, signOut, {}, async (req, reply) => {
    const caller = await authenticate(req, db, tokens).catch(() => undefined);
    await identity.signOut(req.cookies[REFRESH_COOKIE], caller?.sessionId);
    reply.clearCookie(REFRESH_COOKIE, cookieOptions);
    return done;
  });

  route(app, forgotPassword, {}, async (req) => ok(await identity.forgotPassword(req.body, addressKey(req.ip))));

  route(app, confirmForgotPassword, {}, async (req) => {
    await identity.confirmForgotPassword(req.body, addressKey(req.ip));
    return done;
  });

  route(app, changePassword, {}, async (req) => {
    const caller = requireCaller(req);
    await identity.changePassword(caller.userId, caller.sessionId, req.body, addressKey(req.ip));
    return done;
  });
};
