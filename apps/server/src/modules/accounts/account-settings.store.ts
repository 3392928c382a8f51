import type { Db } from '../../db/database.ts';

/** SQL of the Settings page's account information: the name and the sealed signing secrets. */

export async function renameAccount(db: Db, accountId: string, name: string): Promise<void> {
  await db.updateTable('accounts').set({ name }).where('id', '=', accountId).execute();
}

export async function findAccountName(db: Db, accountId: string): Promise<string | undefined> {
  const row = await db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
  return row?.name;
}

/** The sealed secret, or null for an account made before secrets were given at creation. */
export async function findSealedSigningSecret(db: Db, accountId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select('signing_secret_sealed')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row?.signing_secret_sealed;
}

/** Stores a secret only where none is: of two first reads at once, one secret stands. */
export async function setSigningSecretIfMissing(db: Db, accountId: string, sealed: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ signing_secret_sealed: sealed })
    .where('id', '=', accountId)
    .where('signing_secret_sealed', 'is', null)
    .execute();
}

export interface StoredSigningSecrets {
  current: string | null;
  previous: string | null;
  rotatedAt: Date | null;
}

/** The sealed current and previous secrets, and when the last rotation happened. */
export async function findSigningSecrets(db: Db, accountId: string): Promise<StoredSigningSecrets | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['signing_secret_sealed', 'previous_signing_secret_sealed', 'signing_secret_rotated_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return (
    row && {
      current: row.signing_secret_sealed,
      previous: row.previous_signing_secret_sealed,
      rotatedAt: row.signing_secret_rotated_at,
    }
  );
}

/**
 * Puts a new secret in place and keeps the one it replaces as the previous, in one statement: of
 * two rotations at once, the second keeps the first one's new secret, so no rotation is lost.
 * Answers whether the account had a secret to keep.
 */
export async function rotateSigningSecret(
  db: Db,
  accountId: string,
  sealed: string,
  at: Date,
): Promise<{ hadSecret: boolean } | undefined> {
  const row = await db
    .updateTable('accounts')
    .set((eb) => ({
      previous_signing_secret_sealed: eb.ref('signing_secret_sealed'),
      signing_secret_sealed: sealed,
      signing_secret_rotated_at: at,
    }))
    .where('id', '=', accountId)
    .returning('previous_signing_secret_sealed')
    .executeTakeFirst();
  return row && { hadSecret: row.previous_signing_secret_sealed !== null };
}
