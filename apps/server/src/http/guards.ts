import { ACCOUNT_HEADER, canManageAccount, type Endpoint, Messages } from '@ebs/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { findMemberRole, memberAccountIsDraftOf, memberRoleOf } from '../modules/accounts/account-rows.service.ts';
import { isSessionLive } from '../modules/identity/identity.service.ts';
import { liveSessionOf } from '../modules/identity/live-session.ts';
import type { IdTokens } from '../modules/identity/tokens.ts';
import { badRequest, forbidden, unauthorized } from './errors.ts';

export interface Caller {
  userId: string;
  sessionId: string;
  email: string;
}

export interface CurrentAccount {
  id: string;
  roleName: string;
}

interface Membership {
  roleName: string;
  isDraft: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without signing in. */
    public?: boolean;
    /** Names an account in `ebs-account-id`; the caller must be one of its members. */
    accountScoped?: boolean;
    /** The header may be left out; the handler then finds the account otherwise and checks membership itself. */
    accountHeaderOptional?: boolean;
    /** Also serves the creation wizard's draft (cards and details); every other route refuses drafts. */
    draftAllowed?: boolean;
    /** Only the account's owner may call (docs/roles.md); the refusal's message for anyone else. */
    ownerOnly?: string;
    /** The contract's table entry the route was registered from (http/route.ts). */
    endpoint?: Endpoint;
  }
  interface FastifyRequest {
    caller: Caller | null;
    account: CurrentAccount | null;
  }
}

/** The OpenAPI document and its viewer are public. */
export const API_DOCS_PREFIX = '/api/docs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The identity token's claims, from `authorization` ("Bearer x" or the bare token, as hosted providers allow). */
async function claimsOf(request: FastifyRequest, tokens: IdTokens) {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7) : header;
  if (!token) throw unauthorized();
  return tokens.verify(token);
}

export async function authenticate(request: FastifyRequest, db: Db, tokens: IdTokens): Promise<Caller> {
  const claims = await claimsOf(request, tokens);
  if (!(await isSessionLive(db, claims.sid))) throw unauthorized();
  return { userId: claims.sub, sessionId: claims.sid, email: claims.email };
}

/**
 * The caller of a request naming an account, with their membership of it (undefined when they are
 * not a member): the session and the membership are read in one query, one database round trip
 * per request instead of two.
 */
async function authenticateMember(
  request: FastifyRequest,
  db: Db,
  tokens: IdTokens,
  accountId: string,
): Promise<{ caller: Caller; member: Membership | undefined }> {
  const claims = await claimsOf(request, tokens);
  const row = await db
    .selectNoFrom([
      liveSessionOf(claims.sid).as('live'),
      memberRoleOf(accountId, claims.sub).as('role_name'),
      memberAccountIsDraftOf(accountId, claims.sub).as('is_draft'),
    ])
    .executeTakeFirst();
  if (row?.live !== true) throw unauthorized();
  const member =
    row.role_name === null || row.is_draft === null ? undefined : { roleName: row.role_name, isDraft: row.is_draft };
  return { caller: { userId: claims.sub, sessionId: claims.sid, email: claims.email }, member };
}

/** The user's role in an account, or undefined when they are not a member. */
export async function memberRole(db: Db, accountId: string, userId: string): Promise<string | undefined> {
  return findMemberRole(db, accountId, userId);
}

export const requireCaller = (request: FastifyRequest): Caller => {
  if (!request.caller) throw unauthorized();
  return request.caller;
};

export const requireAccount = (request: FastifyRequest): CurrentAccount => {
  if (!request.account) throw forbidden(Messages.notAMember);
  return request.account;
};

/** The console API and the identity service: their routes need a signed-in caller unless marked public. */
export const isGuarded = (url: string) =>
  (url.startsWith('/api/') && !url.startsWith(API_DOCS_PREFIX)) || url.startsWith('/auth/');

/**
 * Every /api and /auth route needs a signed-in caller unless marked public; every account-scoped
 * route checks membership, and an owner-only one the role, before the body is even read, so a
 * stranger learns nothing from validation.
 */
export function registerGuards(app: FastifyInstance, db: Db, tokens: IdTokens): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('account', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!isGuarded(request.routeOptions.url ?? '') || config.public) return;
    const raw = request.headers[ACCOUNT_HEADER];
    const accountId = Array.isArray(raw) ? raw[0] : raw;
    const named = config.accountScoped && accountId && UUID.test(accountId) ? accountId : undefined;
    if (named === undefined) {
      // A bad session answers 401 before a missing or malformed account header answers 400.
      request.caller = await authenticate(request, db, tokens);
      if (!config.accountScoped || (!accountId && config.accountHeaderOptional)) return;
      throw badRequest(Messages.accountHeaderRequired);
    }
    const { caller, member } = await authenticateMember(request, db, tokens, named);
    request.caller = caller;
    if (!member) throw forbidden(Messages.notAMember);
    if (member.isDraft && !config.draftAllowed) throw badRequest(Messages.accountNotFinished);
    if (config.ownerOnly && !canManageAccount(member.roleName)) throw forbidden(config.ownerOnly);
    request.account = { id: named, roleName: member.roleName };
  });
}
