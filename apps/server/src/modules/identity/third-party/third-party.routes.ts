import {
  endpoints,
  THIRD_PARTY_ERROR_PARAM,
  THIRD_PARTY_LANDING_PATH,
  type ThirdPartyErrorCode,
  type ThirdPartySlot,
  thirdPartyMfaFragment,
} from '@ebs/contract';
// The cookie plugin's request and reply fields (the app registers the plugin).
import type {} from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config.ts';
import { cookieSecure } from '../../../config.ts';
import { addressKey } from '../../../http/rate-limit.ts';
import { route } from '../../../http/route.ts';
import { REFRESH_COOKIE, refreshCookieOptions } from '../identity.routes.ts';
import { FLOW_TTL_SECONDS, ThirdPartyFailure, type ThirdPartySignIn } from './third-party.service.ts';

export const FLOW_COOKIE = 'ebs_third_party';
/** The flow cookie travels only to the third-party routes. */
const FLOW_COOKIE_PATH = '/auth/third-party';

/** What thirdPartyRoutes is built from (the composition root hands it in). */
export interface ThirdPartyRoutesOptions {
  thirdParty: ThirdPartySignIn;
  config: Config;
}

/**
 * Third-party sign-in (docs/decisions.md): `start` sends the browser to the provider, `callback`
 * brings it back signed in (the refresh cookie set, as /auth/sign-in sets it), to the Login page's
 * second step when the user has two-factor sign-in on (no cookie; the challenge in the fragment),
 * or to /login with an error code. Both are browser navigations, so both answer with redirects.
 */
export const thirdPartyRoutes: FastifyPluginAsyncTypebox<ThirdPartyRoutesOptions> = async (
  app,
  { config, thirdParty },
) => {
  const { startThirdParty, thirdPartyCallback } = endpoints.identity;
  // SameSite=Lax: the provider's redirect back is a cross-site top-level GET, which Lax lets through.
  const flowCookie = { path: FLOW_COOKIE_PATH, httpOnly: true, sameSite: 'lax' as const, secure: cookieSecure(config) };

  const backToLogin = (reply: FastifyReply, slot: ThirdPartySlot, error: unknown) => {
    const failure =
      error instanceof ThirdPartyFailure ? error : new ThirdPartyFailure('failed', (error as Error).message);
    if (!(error instanceof ThirdPartyFailure)) app.log.error({ err: error }, 'third-party sign-in broke');
    thirdParty.logFailure(slot, failure);
    const code: ThirdPartyErrorCode = failure.code;
    return reply.redirect(`/login?${THIRD_PARTY_ERROR_PARAM}=${code}`, 302);
  };

  route(app, startThirdParty, {}, async (req, reply) => {
    const slot = req.params.provider;
    try {
      const { url, flowToken } = await thirdParty.start(slot, addressKey(req.ip));
      reply.setCookie(FLOW_COOKIE, flowToken, { ...flowCookie, maxAge: FLOW_TTL_SECONDS });
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    } catch (error) {
      return backToLogin(reply, slot, error);
    }
  });

  route(app, thirdPartyCallback, {}, async (req, reply) => {
    const slot = req.params.provider;
    // The flow is single-use whatever happens next.
    reply.clearCookie(FLOW_COOKIE, flowCookie);
    reply.header('cache-control', 'no-store');
    try {
      const outcome = await thirdParty.finish(slot, {
        flowToken: req.cookies[FLOW_COOKIE],
        state: req.query.state,
        error: req.query.error,
        search: searchOf(req),
      });
      // Two-factor sign-in is on: the code is asked as after a password, and only it opens a session.
      if (!('refreshToken' in outcome)) return reply.redirect(`/login${thirdPartyMfaFragment(outcome)}`, 302);
      reply.setCookie(REFRESH_COOKIE, outcome.refreshToken, {
        ...refreshCookieOptions(config),
        maxAge: config.REFRESH_TOKEN_TTL_SECONDS,
      });
      // The web app's start-up turns the refresh cookie into an identity token, as on any reload.
      return reply.redirect(THIRD_PARTY_LANDING_PATH, 302);
    } catch (error) {
      return backToLogin(reply, slot, error);
    }
  });
};

const searchOf = (req: FastifyRequest) => {
  const at = req.url.indexOf('?');
  return at === -1 ? '' : req.url.slice(at);
};
