import {
  AuthSession,
  ChangePasswordBody,
  CodeDelivery,
  ConfirmForgotPasswordBody,
  ConfirmResult,
  ConfirmSignUpBody,
  Done,
  EmailBody,
  MfaSignInBody,
  SignInBody,
  SignInResult,
  SignUpBody,
  SignUpResult,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { type Config, cookieSecure } from '../../config.ts';
import type { Deps } from '../../deps.ts';
import { authenticate, requireCaller } from '../../http/guards.ts';
import { addressKey } from '../../http/rate-limit.ts';
import { ok, responses } from '../../http/reply.ts';
import type { SignedIn } from './identity.service.ts';

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

export const identityRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { identity, config, db, tokens }) => {
  const tags = ['identity'];
  const cookieOptions = refreshCookieOptions(config);
  const signedIn = (reply: FastifyReply, result: SignedIn) => {
    reply.setCookie(REFRESH_COOKIE, result.refreshToken, {
      ...cookieOptions,
      maxAge: config.REFRESH_TOKEN_TTL_SECONDS,
    });
    return result.session;
  };
  const done = ok({ result: 'SUCCESS' as const });

  app.post(
    '/auth/sign-up',
    { config: { public: true }, schema: { tags, body: SignUpBody, response: responses(SignUpResult) } },
    async (req, reply) => {
      const { result, signUpToken } = await identity.signUp(req.body, addressKey(req.ip));
      // Names this sign-up to its confirmation from the same browser (IdentityService.confirmSignUp).
      reply.setCookie(SIGN_UP_COOKIE, signUpToken, {
        ...cookieOptions,
        path: '/auth/confirm-sign-up',
        maxAge: config.SIGN_UP_CODE_TTL_SECONDS,
      });
      return ok(result);
    },
  );

  app.post(
    '/auth/confirm-sign-up',
    { config: { public: true }, schema: { tags, body: ConfirmSignUpBody, response: responses(ConfirmResult) } },
    async (req, reply) =>
      ok({
        result: 'SUCCESS' as const,
        ...signedIn(
          reply,
          await identity.confirmSignUp(req.body, addressKey(req.ip), req.cookies[SIGN_UP_COOKIE] || undefined),
        ),
      }),
  );

  app.post(
    '/auth/resend-code',
    { config: { public: true }, schema: { tags, body: EmailBody, response: responses(CodeDelivery) } },
    async (req) => ok(await identity.resendCode(req.body, addressKey(req.ip))),
  );

  app.post(
    '/auth/sign-in',
    { config: { public: true }, schema: { tags, body: SignInBody, response: responses(SignInResult) } },
    async (req, reply) => {
      const result = await identity.signIn(req.body, addressKey(req.ip));
      // With two-factor sign-in on, the password alone opens no session: no cookie before the code.
      return ok('refreshToken' in result ? signedIn(reply, result) : result);
    },
  );

  app.post(
    '/auth/sign-in/mfa',
    { config: { public: true }, schema: { tags, body: MfaSignInBody, response: responses(AuthSession) } },
    async (req, reply) => ok(signedIn(reply, await identity.answerMfaChallenge(req.body, addressKey(req.ip)))),
  );

  app.post(
    '/auth/refresh',
    { config: { public: true }, schema: { tags, response: responses(AuthSession) } },
    async (req, reply) => {
      try {
        return ok(signedIn(reply, await identity.refresh(req.cookies[REFRESH_COOKIE])));
      } catch (error) {
        reply.clearCookie(REFRESH_COOKIE, cookieOptions);
        throw error;
      }
    },
  );

  app.post(
    '/auth/sign-out',
    { config: { public: true }, schema: { tags, response: responses(Done) } },
    async (req, reply) => {
      const caller = await authenticate(req, db, tokens).catch(() => undefined);
      await identity.signOut(req.cookies[REFRESH_COOKIE], caller?.sessionId);
      reply.clearCookie(REFRESH_COOKIE, cookieOptions);
      return done;
    },
  );

  app.post(
    '/auth/forgot-password',
    { config: { public: true }, schema: { tags, body: EmailBody, response: responses(CodeDelivery) } },
    async (req) => ok(await identity.forgotPassword(req.body, addressKey(req.ip))),
  );

  app.post(
    '/auth/confirm-forgot-password',
    { config: { public: true }, schema: { tags, body: ConfirmForgotPasswordBody, response: responses(Done) } },
    async (req) => {
      await identity.confirmForgotPassword(req.body, addressKey(req.ip));
      return done;
    },
  );

  app.post(
    '/auth/change-password',
    {
      schema: { tags, body: ChangePasswordBody, response: responses(Done) },
    },
    async (req) => {
      const caller = requireCaller(req);
      await identity.changePassword(caller.userId, caller.sessionId, req.body, addressKey(req.ip));
      return done;
    },
  );
};
