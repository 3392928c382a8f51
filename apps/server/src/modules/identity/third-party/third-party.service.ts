import { timingSafeEqual } from 'node:crypto';
import {
  AppError,
  isValidEmail,
  type MfaChallenge,
  normalizeEmail,
  oneLine,
  THIRD_PARTY_SCOPES,
  type ThirdPartyErrorCode,
  type ThirdPartyMfaStep,
  type ThirdPartySlot,
} from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/database.ts';
import { enforce, type RateLimiter } from '../../../http/rate-limit.ts';
import { acceptInvitations } from '../../accounts/index.ts';
import { maskEmail } from '../codes.ts';
import type { SignedIn } from '../identity.service.ts';
import * as users from '../identity.store.ts';
import { hashOpaqueToken, newOpaqueToken } from '../tokens.ts';
import { OpenIdClients, type ProviderSettings, providerSettings, redirectUri } from './third-party.providers.ts';
import * as store from './third-party.store.ts';

/** How long a person has at the provider between the button and the way back. */
export const FLOW_TTL_SECONDS = 600;
const START_LIMIT = { limit: 30, windowSeconds: 15 * 60 };
const NAME_MAX = 100;

/**
 * Ends sign-ins: the identity service's own finishSignIn, so both kinds of sign-in end the same way,
 * with the same two-factor challenge when the user has it on.
 */
export interface SignInFinisher {
  finishSignIn(user: users.UserRow): Promise<SignedIn | MfaChallenge>;
}

/** Why a third-party sign-in ends back at /login; the code is all the browser is told. */
export class ThirdPartyFailure extends Error {
  constructor(
    readonly code: ThirdPartyErrorCode,
    readonly detail?: string,
  ) {
    super(`third-party sign-in failed: ${code}`);
  }
}

/** What the callback received, as the provider sent it. */
export interface CallbackInput {
  flowToken: string | undefined;
  state: string | undefined;
  error: string | undefined;
  /** The raw query string, which openid-client reads the code and iss from. */
  search: string;
}

/** The claims a sign-in rests on, from the ID token and, where it lacks them, the userinfo endpoint. */
interface Profile {
  issuer: string;
  subject: string;
  email: string;
  givenName: string;
  familyName: string;
}

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Network failures and timeouts mean the provider is down; anything else is a refused or bad answer. */
const isUnreachable = (error: unknown) =>
  error instanceof TypeError ||
  (error instanceof oidc.ClientError &&
    ['OAUTH_TIMEOUT', 'OAUTH_ABORT', 'OAUTH_RESPONSE_IS_NOT_CONFORM'].includes(error.code ?? ''));

const causeOf = (error: unknown) =>
  error instanceof oidc.ResponseBodyError
    ? `${error.error}: ${error.error_description ?? ''}`
    : error instanceof Error
      ? `${error.message} ${error.cause instanceof Error ? `(${error.cause.message})` : ''}`.trim()
      : String(error);

/**
 * The spec's scopes (spec A §9), less any the provider's discovery document says it does not offer:
 * Google and GitLab have no `phone` scope and refuse a request that names one. `openid` stays always.
 */
export function requestedScopes(client: oidc.Configuration): string {
  const offered = client.serverMetadata().scopes_supported;
  return THIRD_PARTY_SCOPES.split(' ')
    .filter((scope) => scope === 'openid' || !offered || offered.includes(scope))
    .join(' ');
}

/** A provider's name claim as a user's name: one line (its control characters become spaces), trimmed and cut. */
const text = (value: unknown) => (typeof value === 'string' ? oneLine(value).trim().slice(0, NAME_MAX) : '');

/**
 * Third-party sign-in with OpenID Connect: authorization code flow with PKCE, state and nonce
 * (docs/decisions.md). A first sign-in creates the user from the verified e-mail; later ones find
 * the user by (issuer, subject); a user with the same verified e-mail is linked.
 */
export class ThirdPartySignIn {
  private readonly clients = new OpenIdClients();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly signIns: SignInFinisher,
    private readonly limiter: RateLimiter,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The provider's authorization URL, and the token the browser keeps in a cookie until it comes back. */
  async start(slot: ThirdPartySlot, ip: string): Promise<{ url: string; flowToken: string }> {
    const settings = this.settings(slot);
    try {
      await enforce(this.limiter, [[`third-party:ip:${ip}`, START_LIMIT]]);
    } catch (error) {
      if (error instanceof AppError) throw new ThirdPartyFailure('limit_exceeded');
      throw error;
    }
    const client = await this.client(settings);
    const flow = {
      provider: slot,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const flowToken = newOpaqueToken();
    await store.insertFlow(this.db, hashOpaqueToken(flowToken), flow, FLOW_TTL_SECONDS);
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: redirectUri(this.config, slot),
      response_type: 'code',
      scope: requestedScopes(client),
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, flowToken };
  }

  /**
   * Checks the way back, exchanges the code, and opens a session for the user the provider vouches
   * for; when that user has two-factor sign-in on, no session yet but the second step to answer.
   */
  async finish(slot: ThirdPartySlot, input: CallbackInput): Promise<SignedIn | ThirdPartyMfaStep> {
    const settings = this.settings(slot);
    // The flow is taken before anything else, so a callback URL works once, in the browser that started it.
    const flow = input.flowToken ? await store.takeFlow(this.db, hashOpaqueToken(input.flowToken)) : undefined;
    if (!flow || flow.provider !== slot || !input.state || !sameText(input.state, flow.state)) {
      throw new ThirdPartyFailure('invalid_state');
    }
    if (input.error) {
      throw new ThirdPartyFailure(input.error === 'access_denied' ? 'access_denied' : 'failed', input.error);
    }
    const client = await this.client(settings);
    const currentUrl = new URL(redirectUri(this.config, slot));
    currentUrl.search = input.search;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(client, currentUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new ThirdPartyFailure(isUnreachable(error) ? 'provider_unavailable' : 'failed', causeOf(error));
    }
    const profile = await this.profile(client, tokens);
    const user = await this.findOrCreateUser(profile);
    const result = await this.signIns.finishSignIn(user);
    if (!('challengeName' in result)) return result;
    return { session: result.session, expiresIn: result.expiresIn, email: maskEmail(user.email) };
  }

  /** Logs why a sign-in failed, without tokens, codes or the client secret. */
  logFailure(slot: ThirdPartySlot, failure: ThirdPartyFailure): void {
    this.log.warn({ provider: slot, reason: failure.code, detail: failure.detail }, 'third-party sign-in failed');
  }

  private settings(slot: ThirdPartySlot): ProviderSettings {
    const settings = providerSettings(this.config, slot);
    if (!settings) throw new ThirdPartyFailure('not_configured');
    return settings;
  }

  private async client(settings: ProviderSettings): Promise<oidc.Configuration> {
    try {
      return await this.clients.get(settings);
    } catch (error) {
      throw new ThirdPartyFailure('provider_unavailable', causeOf(error));
    }
  }

  /**
   * The ID token's claims. When it lacks the e-mail or its verified flag, both come from the
   * userinfo endpoint (one source for the pair), checked to be about the same subject.
   */
  private async profile(
    client: oidc.Configuration,
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  ): Promise<Profile> {
    const claims = tokens.claims();
    if (!claims) throw new ThirdPartyFailure('failed', 'no ID token');
    let merged: Record<string, unknown> = { ...claims };
    if (claims.email === undefined || claims.email_verified === undefined) {
      try {
        const info = await oidc.fetchUserInfo(client, tokens.access_token, claims.sub);
        merged = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
      } catch (error) {
        throw new ThirdPartyFailure(isUnreachable(error) ? 'provider_unavailable' : 'failed', causeOf(error));
      }
    }
    // Some providers send the flag as the text "true".
    const verified = merged.email_verified === true || merged.email_verified === 'true';
    const email = typeof merged.email === 'string' ? normalizeEmail(merged.email) : '';
    if (!verified || !isValidEmail(email)) throw new ThirdPartyFailure('email_not_verified');
    let givenName = text(merged.given_name);
    let familyName = text(merged.family_name);
    if (!givenName && !familyName) {
      const [first = '', ...rest] = text(merged.name).split(/\s+/);
      givenName = first;
      familyName = rest.join(' ');
    }
    return {
      issuer: client.serverMetadata().issuer,
      subject: claims.sub,
      email,
      givenName: givenName || (email.split('@')[0] ?? '').slice(0, NAME_MAX),
      familyName,
    };
  }

  /** Finds the user by identity, else links the user with this verified e-mail, else creates one. */
  private async findOrCreateUser(profile: Profile): Promise<users.UserRow> {
    const userId = await this.db.transaction().execute(async (trx) => {
      const linked = await store.useIdentity(trx, profile.issuer, profile.subject, profile.email);
      if (linked) return linked;
      const existing = await users.findUserByEmail(trx, profile.email);
      let id = existing?.id;
      if (existing && !existing.confirmedAt) {
        await store.takeOverUnconfirmedUser(trx, existing.id, profile);
        await users.confirmUser(trx, existing.id);
      }
      id ??= await store.insertUserWithoutPassword(trx, profile);
      if (!id) throw new ThirdPartyFailure('failed', 'the e-mail was taken by a sign-up at the same moment');
      if (!existing?.confirmedAt) await acceptInvitations(trx, id, profile.email);
      await store.insertIdentity(trx, {
        issuer: profile.issuer,
        subject: profile.subject,
        userId: id,
        email: profile.email,
      });
      return id;
    });
    const user = await users.findUserById(this.db, userId);
    if (!user) throw new ThirdPartyFailure('failed', 'the user is gone');
    return user;
  }
}
