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

/** The active keys of some accounts with their own daily request limits (null: the deployment's). */
export async function findActiveKeyDayLimits(
  db: Db,
  accountIds: string[],
): Promise<Array<{ accountId: string; keyId: string; name: string; requestsPerDay: number | null }>> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .selectFrom('api_keys')
    .select(['account_id', 'id', 'name', 'requests_per_day'])
    .where('account_id', 'in', accountIds)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'ACTIVE')
    .execute();
  return rows.map((r) => ({ accountId: r.account_id, keyId: r.id, name: r.name, requestsPerDay: r.requests_per_day }));
}

/** The names of an account's keys by id, deleted keys included (their history keeps their names). */
export async function findKeyNames(db: Db, accountId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function countKeys(db: Db, accountId: string): Promise<number> {
  const row = await live(db, accountId).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * When the account's keys created after `since` were created, newest first, at most `limit` of
 * them. Deleted keys are included: deleting a key does not give its creation back.
 */
export async function findKeyCreationsSince(db: Db, accountId: string, since: Date, limit: number): Promise<Date[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select('created_at')
    .where('account_id', '=', accountId)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.created_at);
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

/** A key's security settings as stored, for the settings calls. */
export interface StoredKeySettings {
  allowedOrigins: string[];
  allowedIps: string[];
  allowedMethods: string[];
  allowedContracts: string[];
  requestsPerSecond: number | null;
  requestsPerDay: number | null;
  computeUnitsPerSecond: number | null;
  computeUnitsPerDay: number | null;
  jwtRequired: boolean;
  expiresAt: Date | null;
}

export interface StoredJwtKey {
  id: string;
  algorithm: 'RS256' | 'ES256';
  pem: string;
  createdAt: Date;
}

const settingsColumns = [
  'allowed_origins',
  'allowed_ips',
  'allowed_methods',
  'allowed_contracts',
  'requests_per_second',
  'requests_per_day',
  'compute_units_per_second',
  'compute_units_per_day',
  'jwt_required',
  'expires_at',
] as const;

type SettingsRow = {
  allowed_origins: string[];
  allowed_ips: string[];
  allowed_methods: string[];
  allowed_contracts: string[];
  requests_per_second: number | null;
  requests_per_day: number | null;
  compute_units_per_second: number | null;
  compute_units_per_day: number | null;
  jwt_required: boolean;
  expires_at: Date | null;
};

const toSettings = (r: SettingsRow): StoredKeySettings => ({
  allowedOrigins: r.allowed_origins,
  allowedIps: r.allowed_ips,
  allowedMethods: r.allowed_methods,
  allowedContracts: r.allowed_contracts,
  requestsPerSecond: r.requests_per_second,
  requestsPerDay: r.requests_per_day,
  computeUnitsPerSecond: r.compute_units_per_second,
  computeUnitsPerDay: r.compute_units_per_day,
  jwtRequired: r.jwt_required,
  expiresAt: r.expires_at,
});

/** The settings of one live key of the account, locked for a change when `forUpdate`. */
export async function findKeySettings(
  db: Db,
  accountId: string,
  keyId: string,
  forUpdate = false,
): Promise<StoredKeySettings | undefined> {
  let query = live(db, accountId).select(settingsColumns).where('id', '=', keyId);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toSettings(row);
}

export async function findJwtKeys(db: Db, keyIds: string[]): Promise<Map<string, StoredJwtKey[]>> {
  const byKey = new Map<string, StoredJwtKey[]>();
  if (keyIds.length === 0) return byKey;
  const rows = await db
    .selectFrom('api_key_jwt_keys')
    .select(['id', 'api_key_id', 'algorithm', 'public_key_pem', 'created_at'])
    .where('api_key_id', 'in', keyIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = byKey.get(r.api_key_id) ?? [];
    list.push({ id: r.id, algorithm: r.algorithm, pem: r.public_key_pem, createdAt: r.created_at });
    byKey.set(r.api_key_id, list);
  }
  return byKey;
}

/** Writes the settings given (the others stay) and moves updated_at, so every gateway reloads the key. */
export async function updateKeySettings(db: Db, keyId: string, patch: Partial<StoredKeySettings>): Promise<void> {
  const json = (list: string[] | undefined) => (list === undefined ? undefined : JSON.stringify(list));
  await db
    .updateTable('api_keys')
    .set({
      allowed_origins: json(patch.allowedOrigins),
      allowed_ips: json(patch.allowedIps),
      allowed_methods: json(patch.allowedMethods),
      allowed_contracts: json(patch.allowedContracts),
      requests_per_second: patch.requestsPerSecond,
      requests_per_day: patch.requestsPerDay,
      compute_units_per_second: patch.computeUnitsPerSecond,
      compute_units_per_day: patch.computeUnitsPerDay,
      jwt_required: patch.jwtRequired,
      expires_at: patch.expiresAt,
      updated_at: sql`now()`,
    })
    .where('id', '=', keyId)
    .execute();
}

/**
 * Replaces a key's public keys with the list given: saved ones named by id, or by a PEM already
 * there, keep their id (a JWT in use names it); new PEMs are added; the rest are removed. Answers
 * the 1-based place of an id that names no public key of this key, and then changes nothing.
 */
export async function replaceJwtKeys(
  db: Db,
  keyId: string,
  keys: Array<{ id: string } | { algorithm: 'RS256' | 'ES256'; pem: string }>,
): Promise<{ unknownAt: number } | undefined> {
  const current = (await findJwtKeys(db, [keyId])).get(keyId) ?? [];
  const kept = new Set<string>();
  const added: Array<{ algorithm: 'RS256' | 'ES256'; pem: string }> = [];
  for (const [i, k] of keys.entries()) {
    const saved = current.find((c) => ('id' in k ? c.id === k.id : c.pem === k.pem));
    if (saved) kept.add(saved.id);
    else if ('id' in k) return { unknownAt: i + 1 };
    else if (!added.some((a) => a.pem === k.pem)) added.push(k);
  }
  let removal = db.deleteFrom('api_key_jwt_keys').where('api_key_id', '=', keyId);
  if (kept.size > 0) removal = removal.where('id', 'not in', [...kept]);
  await removal.execute();
  if (added.length > 0) {
    await db
      .insertInto('api_key_jwt_keys')
      .values(added.map((k) => ({ api_key_id: keyId, algorithm: k.algorithm, public_key_pem: k.pem })))
      .execute();
  }
  return undefined;
}

/**
 * A new secret for a live key: the one it replaces stays valid until `previousUntil` (none when
 * null); a secret an earlier roll kept is dropped. Answers whether the key was there.
 */
export async function rollKeySecret(
  db: Db,
  accountId: string,
  keyId: string,
  keyHash: string,
  previousUntil: Date | null,
): Promise<boolean> {
  const row = await liveKey(db, accountId, keyId)
    .set((eb) => ({
      previous_key_hash: previousUntil ? eb.ref('key_hash') : null,
      previous_key_expires_at: previousUntil,
      key_hash: keyHash,
      updated_at: sql`now()`,
    }))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** What the gateway reads of a key: everything its checks need, and the version it was read at. */
export interface GatewayKeyRow extends StoredKeySettings {
  id: string;
  accountId: string;
  /** updated_at as text: microseconds, so two changes in one millisecond still differ. */
  version: string;
  keyHash: Buffer;
  previousKeyHash: Buffer | null;
  previousKeyExpiresAt: Date | null;
  active: boolean;
  deleted: boolean;
  jwtKeys: StoredJwtKey[];
}

/** The gateway's view of these keys (hashes decoded once per read, not once per request). */
export async function findGatewayKeys(db: Db, ids: string[]): Promise<GatewayKeyRow[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select([
      'id',
      'account_id',
      'key_hash',
      'previous_key_hash',
      'previous_key_expires_at',
      'status',
      'deleted_at',
      sql<string>`updated_at::text`.as('version'),
      ...settingsColumns,
    ])
    .where('id', 'in', ids)
    .execute();
  const jwtKeys = await findJwtKeys(
    db,
    rows.filter((r) => r.jwt_required).map((r) => r.id),
  );
  return rows.map((r) => ({
    ...toSettings(r),
    id: r.id,
    accountId: r.account_id,
    version: r.version,
    keyHash: Buffer.from(r.key_hash, 'hex'),
    previousKeyHash: r.previous_key_hash ? Buffer.from(r.previous_key_hash, 'hex') : null,
    previousKeyExpiresAt: r.previous_key_expires_at,
    active: r.status === 'ACTIVE',
    deleted: r.deleted_at !== null,
    jwtKeys: jwtKeys.get(r.id) ?? [],
  }));
}

/** Each key's version and account: what the gateway's periodic re-read compares with what it holds. */
export async function findGatewayKeyVersions(db: Db, ids: string[]) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'account_id as accountId', sql<string>`updated_at::text`.as('version')])
    .where('id', 'in', ids)
    .execute();
}
