import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';

export interface Flow {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Keeps a sign-in under way for a few minutes; expired ones are swept first, so the table stays small. */
export async function insertFlow(db: Db, flowHash: string, flow: Flow, ttlSeconds: number): Promise<void> {
  await db.deleteFrom('third_party_sign_ins').where('expires_at', '<=', sql<Date>`now()`).execute();
  await db
    .insertInto('third_party_sign_ins')
    .values({
      flow_hash: flowHash,
      provider: flow.provider,
      state: flow.state,
      nonce: flow.nonce,
      code_verifier: flow.codeVerifier,
      expires_at: sql`now() + make_interval(secs => ${ttlSeconds})`,
    })
    .execute();
}

/** Takes a sign-in under way out of the table: it can be finished once, and not after it expired. */
export async function takeFlow(db: Db, flowHash: string): Promise<Flow | undefined> {
  const row = await db
    .deleteFrom('third_party_sign_ins')
    .where('flow_hash', '=', flowHash)
    .returning(['provider', 'state', 'nonce', 'code_verifier', sql<boolean>`expires_at > now()`.as('live')])
    .executeTakeFirst();
  if (!row?.live) return undefined;
  return { provider: row.provider, state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier };
}

/** The user an identity at a provider belongs to; records the e-mail it came with this time. */
export async function useIdentity(db: Db, issuer: string, subject: string, email: string): Promise<string | undefined> {
  const row = await db
    .updateTable('user_identities')
    .set({ email, last_used_at: sql`now()` })
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

export async function insertIdentity(
  db: Db,
  identity: { issuer: string; subject: string; userId: string; email: string },
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values({ issuer: identity.issuer, subject: identity.subject, user_id: identity.userId, email: identity.email })
    .execute();
}

/** A user whose e-mail the provider proved: confirmed, and without a password until a reset gives one. */
export async function insertUserWithoutPassword(
  db: Db,
  user: { email: string; givenName: string; familyName: string },
): Promise<string | undefined> {
  const row = await db
    .insertInto('users')
    .values({
      email: user.email,
      given_name: user.givenName,
      family_name: user.familyName,
      password_hash: null,
      confirmed_at: sql`now()`,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * An unconfirmed sign-up with the same e-mail never proved it owned the address: whoever typed its
 * password and names may not be the person the provider vouches for, so both are replaced.
 */
export async function takeOverUnconfirmedUser(
  db: Db,
  id: string,
  names: { givenName: string; familyName: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: null, given_name: names.givenName, family_name: names.familyName })
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .execute();
}
