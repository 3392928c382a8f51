import { ACCOUNT_HEADER, Messages } from '@ebs/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { isSessionLive } from '../modules/identity/identity.store.ts';
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
  }
  interface FastifyRequest {
    caller: Caller | null;
    account: CurrentAccount | null;
  }
}

/** The OpenAPI document and its viewer are public. */
export const API_DOCS_PREFIX = '/api/docs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads the identity token from `authorization` ("Bearer x" or the bare token, as hosted providers allow). */
export async function authenticate(request: FastifyRequest, db: Db, tokens: IdTokens): Promise<Caller> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7) : header;
  if (!token) throw unauthorized();
  const claims = await tokens.verify(token);
  if (!(await isSessionLive(db, claims.sid))) throw unauthorized();
  return { userId: claims.sub, sessionId: claims.sid, email: claims.email };
}

/** The user's role in an account, or undefined when they are not a member. */
export async function memberRole(db: Db, accountId: string, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('account_members')
    .select('role_name')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role_name;
}

/** The user's membership of an account, with whether it is still a creation-wizard draft. */
async function membership(db: Db, accountId: string, userId: string): Promise<Membership | undefined> {
  const row = await db
    .selectFrom('account_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.role_name', 'a.is_draft'])
    .where('m.account_id', '=', accountId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  return row && { roleName: row.role_name, isDraft: row.is_draft };
}

export const requireCaller = (request: FastifyRequest): Caller => {
  if (!request.caller) throw unauthorized();
  return request.caller;
};

export const requireAccount = (request: FastifyRequest): CurrentAccount => {
  if (!request.account) throw forbidden(Messages.notAMember);
  return request.account;
};

/**
 * Every /api route needs a signed-in caller unless marked public; every account-scoped route
 * checks membership before the body is even read, so a stranger learns nothing from validation.
 */
export function registerGuards(app: FastifyInstance, db: Db, tokens: IdTokens): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('account', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    const url = request.routeOptions.url ?? '';
    if (!url.startsWith('/api/') || url.startsWith(API_DOCS_PREFIX) || config.public) return;
    request.caller = await authenticate(request, db, tokens);
    if (!config.accountScoped) return;
    const raw = request.headers[ACCOUNT_HEADER];
    const accountId = Array.isArray(raw) ? raw[0] : raw;
    if (!accountId && config.accountHeaderOptional) return;
    if (!accountId || !UUID.test(accountId)) throw badRequest(Messages.accountHeaderRequired);
    const member = await membership(db, accountId, request.caller.userId);
    if (!member) throw forbidden(Messages.notAMember);
    if (member.isDraft && !config.draftAllowed) throw badRequest(Messages.accountNotFinished);
    request.account = { id: accountId, roleName: member.roleName };
  });
}
