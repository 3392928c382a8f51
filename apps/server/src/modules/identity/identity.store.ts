import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CodePurpose } from './codes.ts';

export interface UserRow {
  id: string;
  email: string;
  givenName: string;
  familyName: string;
  /** Null for a user who signed up with a third-party provider and never set a password. */
  passwordHash: string | null;
  confirmedAt: Date | null;
}

const userColumns = ['id', 'email', 'given_name', 'family_name', 'password_hash', 'confirmed_at'] as const;

const toUser = (r: {
  id: string;
  email: string;
  given_name: string;
  family_name: string;
  password_hash: string | null;
  confirmed_at: Date | null;
}): UserRow => ({
  id: r.id,
  email: r.email,
  givenName: r.given_name,
  familyName: r.family_name,
  passwordHash: r.password_hash,
  confirmedAt: r.confirmed_at,
});

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const row = await db.selectFrom('users').select(userColumns).where('email', '=', email).executeTakeFirst();
  return row && toUser(row);
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const row = await db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

export async function insertUser(
  db: Db,
  user: { email: string; givenName: string; familyName: string; passwordHash: string; referralCode: string | null },
): Promise<string> {
  const { id } = await db
    .insertInto('users')
    .values({
      email: user.email,
      given_name: user.givenName,
      family_name: user.familyName,
      password_hash: user.passwordHash,
      referral_code: user.referralCode,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function confirmUser(db: Db, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ confirmed_at: sql`now()` })
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .execute();
}

export async function setPasswordHash(db: Db, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

export async function insertCode(
  db: Db,
  code: { userId: string; purpose: CodePurpose; codeHash: string; ttlSeconds: number },
): Promise<void> {
  await db
    .insertInto('verification_codes')
    .values({
      user_id: code.userId,
      purpose: code.purpose,
      code_hash: code.codeHash,
      expires_at: sql`now() + make_interval(secs => ${code.ttlSeconds})`,
    })
    .execute();
}

export interface CodeRow {
  id: string;
  codeHash: string;
  attempts: number;
  expired: boolean;
  used: boolean;
  ageSeconds: number;
}

/** The newest code of a purpose: only it can be used, so sending a new code retires the older ones. */
export async function newestCode(db: Db, userId: string, purpose: CodePurpose): Promise<CodeRow | undefined> {
  const row = await db
    .selectFrom('verification_codes')
    .select([
      'id',
      'code_hash',
      'attempts',
      sql<boolean>`expires_at <= now()`.as('expired'),
      sql<boolean>`used_at is not null`.as('used'),
      sql<number>`extract(epoch from now() - created_at)::float8`.as('age_seconds'),
    ])
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      codeHash: row.code_hash,
      attempts: row.attempts,
      expired: row.expired,
      used: row.used,
      ageSeconds: Number(row.age_seconds),
    }
  );
}

export async function countFailedAttempt(db: Db, codeId: string): Promise<void> {
  await db.updateTable('verification_codes').set({ attempts: sql`attempts + 1` }).where('id', '=', codeId).execute();
}

/** Marks a code used; false when another request used it first. */
export async function useCode(db: Db, codeId: string): Promise<boolean> {
  const row = await db
    .updateTable('verification_codes')
    .set({ used_at: sql`now()` })
    .where('id', '=', codeId)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertSession(db: Db, userId: string, ttlSeconds: number): Promise<string> {
  const { id } = await db
    .insertInto('sessions')
    .values({ user_id: userId, expires_at: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertRefreshToken(db: Db, sessionId: string, tokenHash: string): Promise<void> {
  await db.insertInto('refresh_tokens').values({ session_id: sessionId, token_hash: tokenHash }).execute();
}

export interface RefreshTokenRow {
  sessionId: string;
  userId: string;
  usedSecondsAgo: number | null;
  sessionLive: boolean;
}

export async function findRefreshToken(db: Db, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const row = await db
    .selectFrom('refresh_tokens as t')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .select([
      't.session_id',
      's.user_id',
      sql<number | null>`extract(epoch from now() - t.used_at)::float8`.as('used_seconds_ago'),
      sql<boolean>`s.revoked_at is null and s.expires_at > now()`.as('session_live'),
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return (
    row && {
      sessionId: row.session_id,
      userId: row.user_id,
      usedSecondsAgo: row.used_seconds_ago === null ? null : Number(row.used_seconds_ago),
      sessionLive: row.session_live,
    }
  );
}

export async function markRefreshTokenUsed(db: Db, tokenHash: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .execute();
}

/** Whether the session of a query's `sessions` row (under `alias`) is live: not revoked, not expired. */
export const sessionLive = (alias: string) =>
  sql<boolean>`${sql.ref(`${alias}.revoked_at`)} is null and ${sql.ref(`${alias}.expires_at`)} > now()`;

export async function isSessionLive(db: Db, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions as s')
    .select(sessionLive('s').as('live'))
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  return row?.live === true;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a user, except one (the caller's own) when given. */
export async function revokeUserSessions(db: Db, userId: string, except?: string): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (except) query = query.where('id', '!=', except);
  await query.execute();
}

// What other modules read and write of `users` (re-exported for them by the face, index.ts).

/** The id of the user with this e-mail (normalised), confirmed or not. */
export async function findUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row?.id;
}

/** The id of the user with this e-mail (normalised), if they have confirmed it. */
export async function findConfirmedUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return row?.id;
}

/** The user's e-mail, confirmed or not; undefined for no such user. */
export async function findUserEmail(db: Db, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email;
}

/** The user's e-mail if they have confirmed it. */
export async function findConfirmedEmail(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return row?.email;
}

export interface UserName {
  id: string;
  email: string;
  givenName: string;
  familyName: string;
}

/** The e-mails and names of these users (those that exist), ordered by e-mail. */
export async function findUserNames(db: Db, userIds: readonly string[]): Promise<UserName[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'given_name', 'family_name'])
    .where('id', 'in', userIds)
    .orderBy('email')
    .execute();
  return rows.map((r) => ({ id: r.id, email: r.email, givenName: r.given_name, familyName: r.family_name }));
}

export interface UserProfile extends UserName {
  mfaEnabled: boolean;
  welcomeCreditRedeemed: boolean;
}

/** The user's own details and flags, as GET /user shows them. */
export async function findUserProfile(db: Db, userId: string): Promise<UserProfile | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'given_name', 'family_name', 'mfa_enabled', 'welcome_credit_redeemed'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      email: row.email,
      givenName: row.given_name,
      familyName: row.family_name,
      mfaEnabled: row.mfa_enabled,
      welcomeCreditRedeemed: row.welcome_credit_redeemed,
    }
  );
}

/** Locks the user's row until the transaction ends: serialises work done per user. */
export async function lockUser(db: Db, userId: string): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

/**
 * Marks the user's welcome credit redeemed; false when it was already (the row stays locked until
 * the transaction ends, so a concurrent claim waits and then finds it redeemed).
 */
export async function markWelcomeCreditRedeemed(db: Db, userId: string): Promise<boolean> {
  const claimed = await db
    .updateTable('users')
    .set({ welcome_credit_redeemed: sql`true` })
    .where('id', '=', userId)
    .where('welcome_credit_redeemed', '=', false)
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** The users who confirmed a sign-up with this referral code, oldest first (then by e-mail). */
export async function findConfirmedUsersReferredBy(db: Db, code: string): Promise<{ id: string; email: string }[]> {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('referral_code', '=', code)
    .where('confirmed_at', 'is not', null)
    .orderBy('created_at')
    .orderBy('email')
    .execute();
}

/**
 * The users who signed up with a referral code, as a table (`user_id`, `referral_code`) for a
 * statement that must join it to other modules' tables in one go (the ambassadors' rewards).
 */
export const userReferralCodes = (db: Db) =>
  db.selectFrom('users').select(['id as user_id', 'referral_code']).where('referral_code', 'is not', null);

export interface SignUpDetails {
  givenName: string;
  familyName: string;
  passwordHash: string;
  referralCode: string | null;
}

export async function insertSignUpAttempt(
  db: Db,
  userId: string,
  tokenHash: string,
  details: SignUpDetails,
): Promise<void> {
  await db
    .insertInto('sign_up_attempts')
    .values({
      token_hash: tokenHash,
      user_id: userId,
      password_hash: details.passwordHash,
      given_name: details.givenName,
      family_name: details.familyName,
      referral_code: details.referralCode,
    })
    .execute();
}

/**
 * At confirmation: the details of the sign-up whose browser holds the token become the user's,
 * and every attempt of the user is forgotten. Answers whether a token of this user was found.
 */
export async function settleSignUpAttempts(db: Db, userId: string, tokenHash: string | undefined): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const chosen = tokenHash
      ? await trx
          .selectFrom('sign_up_attempts')
          .select(['password_hash', 'given_name', 'family_name', 'referral_code'])
          .where('token_hash', '=', tokenHash)
          .where('user_id', '=', userId)
          .executeTakeFirst()
      : undefined;
    if (chosen) {
      await trx
        .updateTable('users')
        .set({
          password_hash: chosen.password_hash,
          given_name: chosen.given_name,
          family_name: chosen.family_name,
          referral_code: chosen.referral_code,
        })
        .where('id', '=', userId)
        .execute();
    }
    await trx.deleteFrom('sign_up_attempts').where('user_id', '=', userId).execute();
    return chosen !== undefined;
  });
}
