import {
  ACCOUNT_HEADER,
  badRequest,
  canManageAccount,
  type Endpoint,
  forbidden,
  Messages,
  unauthorized,
} from '@ebs/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface Caller {
  userId: string;
  sessionId: string;
  email: string;
}

export interface CurrentAccount {
  id: string;
  roleName: string;
}

export interface Membership {
  roleName: string;
  isDraft: boolean;
}

/**
 * Who is calling, as the identity module checks it (the guards only decide when to ask): the
 * signed-in caller (401 otherwise), and for a request naming an account, the caller with their
 * membership of it (undefined when they are not a member).
 */
export interface CallerChecks {
  caller(request: FastifyRequest): Promise<Caller>;
  member(request: FastifyRequest, accountId: string): Promise<{ caller: Caller; member: Membership | undefined }>;
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
export function registerGuards(app: FastifyInstance, checks: CallerChecks): void {
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
      request.caller = await checks.caller(request);
      if (!config.accountScoped || (!accountId && config.accountHeaderOptional)) return;
      throw badRequest(Messages.accountHeaderRequired);
    }
    const { caller, member } = await checks.member(request, named);
    request.caller = caller;
    if (!member) throw forbidden(Messages.notAMember);
    if (member.isDraft && !config.draftAllowed) throw badRequest(Messages.accountNotFinished);
    if (config.ownerOnly && !canManageAccount(member.roleName)) throw forbidden(config.ownerOnly);
    request.account = { id: named, roleName: member.roleName };
  });
}
