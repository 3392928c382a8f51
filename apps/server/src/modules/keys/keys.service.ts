import {
  API_KEY_NAME_MAX,
  API_KEYS_CREATED_PER_HOUR,
  API_KEYS_PER_ACCOUNT,
  type ApiKey,
  type ApiKeyList,
  type ApiKeySettings,
  AppError,
  badRequest,
  type CreatedApiKey,
  hasControlCharacters,
  isApiKeyNameGiven,
  type KeyRollOverlap,
  KeyRuleMessages,
  Messages,
  notFound,
  type RolledApiKey,
  type UpdateApiKeySettingsBody,
} from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { hashApiKey, newApiKeySecret } from './api-key-secret.ts';
import type { LimitCeilings } from './key-limits.ts';
import { readSettingsChange } from './key-settings-input.ts';
import * as store from './keys.store.ts';

const HOUR_MS = 3_600_000;

/**
 * spec A §5: a key name is required, with one text on create and another (two spaces) on update.
 * Answers the name trimmed; its length is counted in characters, as the schema counts them.
 */
export function checkKeyName(name: unknown, requiredMessage: string): string {
  if (!isApiKeyNameGiven(name)) throw badRequest(requiredMessage);
  const trimmed = name.trim();
  if ([...trimmed].length > API_KEY_NAME_MAX) throw badRequest(Messages.apiKeyNameTooLong);
  if (hasControlCharacters(trimmed)) throw badRequest(Messages.apiKeyNameInvalid);
  return trimmed;
}

/**
 * API keys (spec A §3, §4, §6). The key itself is shown once, in the creation answer; only its
 * SHA-256 is kept. Any member of the account may manage its keys: deletion is limited by the key's
 * status, not by role. A key of another account is answered as unknown, never as someone else's.
 */
/** Locks the account's row for the caller's transaction: the accounts module's, handed in by the root. */
export type AccountLock = (trx: Db, accountId: string) => Promise<void>;

export class KeysService {
  constructor(
    private readonly db: Db,
    /** Serializes the creations of one account's keys, so that its limits count one another. */
    private readonly lockAccount: AccountLock,
    /** The deployment's per-key limits, which a key's own may only lower. */
    private readonly ceilings: LimitCeilings = { perSecond: 0, perDay: 0 },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(accountId: string, page: { limit: number; offset: number }): Promise<ApiKeyList> {
    const { apiKeys, total } = await store.listKeys(this.db, accountId, page);
    return { apiKeys, offset: page.offset, limit: page.limit, total, count: apiKeys.length };
  }

  async create(accountId: string, userId: string, name: unknown): Promise<CreatedApiKey> {
    const apiKeyName = checkKeyName(name, Messages.apiKeyNameRequired);
    const secret = newApiKeySecret();
    const created = await this.db.transaction().execute(async (trx) => {
      await this.lockAccount(trx, accountId);
      if ((await store.countKeys(trx, accountId)) >= API_KEYS_PER_ACCOUNT) throw badRequest(Messages.apiKeyLimit);
      await this.checkHourlyCreations(trx, accountId);
      return store.insertKey(trx, {
        accountId,
        name: apiKeyName,
        keyHash: hashApiKey(secret).toString('hex'),
        createdBy: userId,
      });
    });
    return { ...created, key: { keyId: created.id, key: secret } };
  }

  /**
   * At most API_KEYS_CREATED_PER_HOUR creations in any rolling hour, deleted keys included, so that
   * deleting and creating again does not escape it. Run under the account row lock: concurrent
   * creates count one another. Retry-After is when the oldest creation counted leaves the hour.
   */
  private async checkHourlyCreations(trx: Db, accountId: string): Promise<void> {
    const now = this.now().getTime();
    const created = await store.findKeyCreationsSince(
      trx,
      accountId,
      new Date(now - HOUR_MS),
      API_KEYS_CREATED_PER_HOUR,
    );
    const oldest = created[API_KEYS_CREATED_PER_HOUR - 1];
    if (!oldest) return;
    const wait = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now) / 1000));
    throw new AppError('Too Many Requests', Messages.apiKeyHourlyLimit, { 'retry-after': String(wait) });
  }

  async rename(accountId: string, keyId: string, name: unknown): Promise<ApiKey> {
    const apiKeyName = checkKeyName(name, Messages.apiKeyNameRequiredOnUpdate);
    return found(await store.renameKey(this.db, accountId, keyId, apiKeyName));
  }

  async activate(accountId: string, keyId: string): Promise<ApiKey> {
    return found(await store.setKeyStatus(this.db, accountId, keyId, 'ACTIVE'));
  }

  async deactivate(accountId: string, keyId: string): Promise<ApiKey> {
    return found(await store.setKeyStatus(this.db, accountId, keyId, 'INACTIVE'));
  }

  /** spec A §4: only an INACTIVE key may be deleted; an ACTIVE one is refused and stays as it is. */
  async remove(accountId: string, keyId: string): Promise<void> {
    if (await store.deleteInactiveKey(this.db, accountId, keyId)) return;
    found(await store.findKey(this.db, accountId, keyId));
    throw new AppError('Conflict', Messages.apiKeyDeleteActive);
  }

  /** A key's security settings (docs/api.md "Locking a key down"). */
  async settings(accountId: string, keyId: string, db: Db = this.db): Promise<ApiKeySettings> {
    const settings = found(await store.findKeySettings(db, accountId, keyId));
    const jwtKeys = (await store.findJwtKeys(db, [keyId])).get(keyId) ?? [];
    return {
      ...settings,
      expiresAt: settings.expiresAt?.toISOString() ?? null,
      jwtPublicKeys: jwtKeys.map((k) => ({ id: k.id, algorithm: k.algorithm, createdAt: k.createdAt.toISOString() })),
    };
  }

  /**
   * Changes the settings given, all or none: each part is checked before anything is written, and
   * the key row is locked so that two changes do not interleave. JWT-signed requests cannot be
   * required of a key without a public key. Every gateway process sees the change at its next
   * re-read of the key (within a second).
   */
  async updateSettings(accountId: string, keyId: string, body: UpdateApiKeySettingsBody): Promise<ApiKeySettings> {
    const change = readSettingsChange(body, this.ceilings, this.now());
    return this.db.transaction().execute(async (trx) => {
      const current = found(await store.findKeySettings(trx, accountId, keyId, true));
      const jwtRequired = change.settings.jwtRequired ?? current.jwtRequired;
      const publicKeys = change.jwtKeys?.length ?? ((await store.findJwtKeys(trx, [keyId])).get(keyId) ?? []).length;
      if (jwtRequired && publicKeys === 0) throw badRequest(KeyRuleMessages.jwtWithoutKeys);
      if (change.jwtKeys) {
        const unknown = await store.replaceJwtKeys(trx, keyId, change.jwtKeys);
        if (unknown) throw badRequest(KeyRuleMessages.unknownPublicKey(unknown.unknownAt));
      }
      await store.updateKeySettings(trx, keyId, change.settings);
      return this.settings(accountId, keyId, trx);
    });
  }

  /**
   * A new secret for the same key id, shown once; the old one stays valid for `overlapSeconds`
   * (none at 0), so that clients can move to the new one without downtime.
   */
  async roll(accountId: string, keyId: string, overlapSeconds: KeyRollOverlap): Promise<RolledApiKey> {
    const secret = newApiKeySecret();
    const previousUntil = overlapSeconds > 0 ? new Date(this.now().getTime() + overlapSeconds * 1000) : null;
    const rolled = await store.rollKeySecret(
      this.db,
      accountId,
      keyId,
      hashApiKey(secret).toString('hex'),
      previousUntil,
    );
    if (!rolled) throw notFound(Messages.apiKeyNotFound);
    return { key: { keyId, key: secret }, previousKeyWorksUntil: previousUntil?.toISOString() ?? null };
  }
}

function found<T>(key: T | undefined): T {
  if (!key) throw notFound(Messages.apiKeyNotFound);
  return key;
}
