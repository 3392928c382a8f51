import { unauthorized } from '@ebs/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Caller, CallerChecks, Membership } from '../../http/guards.ts';
import { memberAccountIsDraftOf, memberRoleOf } from '../accounts/index.ts';
import { isSessionLive } from './identity.store.ts';
import { liveSessionOf } from './live-session.ts';
import type { IdTokens } from './tokens.ts';

/** The identity token's claims, from `authorization` ("Bearer x" or the bare token, as hosted providers allow). */
async function claimsOf(request: FastifyRequest, tokens: IdTokens) {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7) : header;
  if (!token) throw unauthorized();
  return tokens.verify(token);
}

/** The signed-in caller of a request: a valid identity token of a live session (401 otherwise). */
export async function authenticate(request: FastifyRequest, db: Db, tokens: IdTokens): Promise<Caller> {
  const claims = await claimsOf(request, tokens);
  if (!(await isSessionLive(db, claims.sid))) throw unauthorized();
  return { userId: claims.sub, sessionId: claims.sid, email: claims.email };
}

/**
 * The checks the console's guards run (http/guards.ts): the caller, and for a request naming an
 * account the caller with their membership of it, the session and the membership read in one query
 * (one database round trip per request instead of two).
 */
export const callerChecks = (db: Db, tokens: IdTokens): CallerChecks => ({
  caller: (request) => authenticate(request, db, tokens),
  async member(request, accountId) {
    const claims = await claimsOf(request, tokens);
    const row = await db
      .selectNoFrom([
        liveSessionOf(claims.sid).as('live'),
        memberRoleOf(accountId, claims.sub).as('role_name'),
        memberAccountIsDraftOf(accountId, claims.sub).as('is_draft'),
      ])
      .executeTakeFirst();
    if (row?.live !== true) throw unauthorized();
    const member: Membership | undefined =
      row.role_name === null || row.is_draft === null ? undefined : { roleName: row.role_name, isDraft: row.is_draft };
    return { caller: { userId: claims.sub, sessionId: claims.sid, email: claims.email }, member };
  },
});
