import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface TwoFactorSecretRow {
  secretSealed: string;
  confirmed: boolean;
}

export async function isMfaEnabled(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('mfa_enabled').where('id', '=', userId).executeTakeFirst();
  return row?.mfa_enabled === true;
}

export async function setMfaEnabled(db: Db, userId: string, enabled: boolean): Promise<void> {
  await db.updateTable('users').set({ mfa_enabled: enabled }).where('id', '=', userId).execute();
}

/** Keeps a new unconfirmed secret, replacing an unconfirmed one; false when a confirmed one exists. */
export async function saveUnconfirmedSecret(db: Db, userId: string, secretSealed: string): Promise<boolean> {
  const row = await db
    .insertInto('two_factor_secrets')
    .values({ user_id: userId, secret_sealed: secretSealed })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret_sealed: secretSealed, last_used_step: null, created_at: sql`now()` })
        .where('two_factor_secrets.confirmed_at', 'is', null),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findSecret(db: Db, userId: string): Promise<TwoFactorSecretRow | undefined> {
  const row = await db
    .selectFrom('two_factor_secrets')
    .select(['secret_sealed', sql<boolean>`confirmed_at is not null`.as('confirmed')])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && { secretSealed: row.secret_sealed, confirmed: row.confirmed };
}

/** Confirms the unconfirmed secret with the step of the code that proved it; false when none waits. */
export async function confirmSecret(db: Db, userId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('two_factor_secrets')
    .set({ confirmed_at: sql`now()`, last_used_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a step whose code was accepted; false when this step or a later one was used already (a replay). */
export async function useStep(db: Db, userId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('two_factor_secrets')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', String(step))]))
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function replaceRecoveryCodes(db: Db, userId: string, codeHashes: string[]): Promise<void> {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(codeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash })))
    .execute();
}

/** Uses a recovery code once; false when it is unknown or used. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const row = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets the secret, the recovery codes and every open sign-in challenge of a user. */
export async function deleteTwoFactor(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_factor_secrets').where('user_id', '=', userId).execute();
}

/**
 * Turns two-factor sign-in off: the secret, the recovery codes and open challenges are forgotten,
 * and nothing else changes (sessions stay). Whoever calls it has checked who asks.
 */
export async function turnOffTwoFactor(db: Db, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteTwoFactor(trx, userId);
    await setMfaEnabled(trx, userId, false);
  });
}

/** A new challenge; the user's finished and expired ones go at the same time, so they never pile up. */
export async function insertChallenge(db: Db, userId: string, tokenHash: string, ttlSeconds: number): Promise<void> {
  await db
    .deleteFrom('sign_in_challenges')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', sql<Date>`now()`)]))
    .execute();
  await db
    .insertInto('sign_in_challenges')
    .values({
      user_id: userId,
      token_hash: tokenHash,
      expires_at: sql`now() + make_interval(secs => ${ttlSeconds})`,
    })
    .execute();
}

export interface ChallengeRow {
  id: string;
  userId: string;
  attempts: number;
  /** Expired or already used: either way it cannot finish a sign-in. */
  spent: boolean;
}

export async function findChallenge(db: Db, tokenHash: string): Promise<ChallengeRow | undefined> {
  const row = await db
    .selectFrom('sign_in_challenges')
    .select(['id', 'user_id', 'attempts', sql<boolean>`used_at is not null or expires_at <= now()`.as('spent')])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && { id: row.id, userId: row.user_id, attempts: row.attempts, spent: row.spent };
}

/** Counts an attempt before its code is checked; false once `max` attempts were made (or it was used). */
export async function claimAttempt(db: Db, challengeId: string, max: number): Promise<boolean> {
  const row = await db
    .updateTable('sign_in_challenges')
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', challengeId)
    .where('attempts', '<', max)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends a challenge with its one successful answer; false when another request ended it first. */
export async function useChallenge(db: Db, challengeId: string): Promise<boolean> {
  const row = await db
    .updateTable('sign_in_challenges')
    .set({ used_at: sql`now()` })
    .where('id', '=', challengeId)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
