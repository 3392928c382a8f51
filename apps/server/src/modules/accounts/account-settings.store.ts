import type { Db } from '../../db/database.ts';

/** SQL of the Settings page's account information: the name and the sealed signing secret. */

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
