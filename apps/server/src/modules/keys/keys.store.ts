import type { ApiKey, ApiKeyStatus } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

type KeyRow = {
  id: string;
  name: string;
  status: ApiKeyStatus;
  created_at: Date;
  updated_at: Date;
};

// Never key_hash: a listed or answered key carries no trace of its secret.
const columns = ['id', 'name', 'status', 'created_at', 'updated_at'] as const;

const toApiKey = (r: KeyRow): ApiKey => ({
  id: r.id,
  apiKeyId: r.id,
  name: r.name,
  apiKeyName: r.name,
  status: r.status,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** The account's keys that are not deleted: a deleted key keeps its row for the usage that names it. */
const live = (db: Db, accountId: string) =>
  db.selectFrom('api_keys').where('account_id', '=', accountId).where('deleted_at', 'is', null);

/** One live key of one account; another account's key reads as absent. */
const liveKey = (db: Db, accountId: string, keyId: string) =>
  db
    .updateTable('api_keys')
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null);

/** The account's live keys, oldest first. */
export async function listKeys(
  db: Db,
  accountId: string,
  page: { limit: number; offset: number },
): Promise<{ apiKeys: ApiKey[]; total: number }> {
  const [rows, count] = await Promise.all([
    live(db, accountId)
      .select(columns)
      .orderBy('created_at', 'asc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    live(db, accountId).select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { apiKeys: rows.map(toApiKey), total: Number(count.total) };
}

export async function countKeys(db: Db, accountId: string): Promise<number> {
  const row = await live(db, accountId).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findKey(db: Db, accountId: string, keyId: string): Promise<ApiKey | undefined> {
  const row = await live(db, accountId).select(columns).where('id', '=', keyId).executeTakeFirst();
  return row && toApiKey(row);
}

export async function insertKey(
  db: Db,
  key: { accountId: string; name: string; keyHash: string; createdBy: string },
): Promise<ApiKey> {
  const row = await db
    .insertInto('api_keys')
    .values({ account_id: key.accountId, name: key.name, key_hash: key.keyHash, created_by: key.createdBy })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toApiKey(row);
}

// Every change moves updated_at: the RPC gateway reloads the keys whose updated_at moved.

export async function renameKey(db: Db, accountId: string, keyId: string, name: string): Promise<ApiKey | undefined> {
  const row = await liveKey(db, accountId, keyId)
    .set({ name, updated_at: sql`now()` })
    .returning(columns)
    .executeTakeFirst();
  return row && toApiKey(row);
}

export async function setKeyStatus(
  db: Db,
  accountId: string,
  keyId: string,
  status: ApiKeyStatus,
): Promise<ApiKey | undefined> {
  const row = await liveKey(db, accountId, keyId)
    .set({ status, updated_at: sql`now()` })
    .returning(columns)
    .executeTakeFirst();
  return row && toApiKey(row);
}

/**
 * Deletes the key only if it is INACTIVE, in one statement, so an activation racing the deletion
 * cannot leave a deleted key that was active. Answers whether it was deleted.
 */
export async function deleteInactiveKey(db: Db, accountId: string, keyId: string): Promise<boolean> {
  const row = await liveKey(db, accountId, keyId)
    .where('status', '=', 'INACTIVE')
    .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The gateway's view of these keys: account, hash (decoded once per read), status. */
export async function findGatewayKeys(db: Db, ids: string[]) {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'key_hash', 'status', 'deleted_at'])
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    keyHash: Buffer.from(r.key_hash, 'hex'),
    active: r.status === 'ACTIVE',
    deleted: r.deleted_at !== null,
  }));
}
