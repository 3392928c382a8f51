import {
  API_KEY_NAME_MAX,
  API_KEYS_PER_ACCOUNT,
  type ApiKey,
  type ApiKeyList,
  type CreatedApiKey,
  isApiKeyNameGiven,
  Messages,
} from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { lockAccountRow } from '../accounts/account-rows.service.ts';
import { hashApiKey, newApiKeySecret } from './api-key-secret.ts';
import * as store from './keys.store.ts';

/**
 * spec A §5: a key name is required, with one text on create and another (two spaces) on update.
 * Answers the name trimmed; its length is counted in characters, as the schema counts them.
 */
export function checkKeyName(name: unknown, requiredMessage: string): string {
  if (!isApiKeyNameGiven(name)) throw badRequest(requiredMessage);
  const trimmed = name.trim();
  if ([...trimmed].length > API_KEY_NAME_MAX) throw badRequest(Messages.apiKeyNameTooLong);
  return trimmed;
}

/**
 * API keys (spec A §3, §4, §6). The key itself is shown once, in the creation answer; only its
 * SHA-256 is kept. Any member of the account may manage its keys: deletion is limited by the key's
 * status, not by role. A key of another account is answered as unknown, never as someone else's.
 */
export class KeysService {
  constructor(private readonly db: Db) {}

  async list(accountId: string, page: { limit: number; offset: number }): Promise<ApiKeyList> {
    const { apiKeys, total } = await store.listKeys(this.db, accountId, page);
    return { apiKeys, offset: page.offset, limit: page.limit, total, count: apiKeys.length };
  }

  async create(accountId: string, userId: string, name: unknown): Promise<CreatedApiKey> {
    const apiKeyName = checkKeyName(name, Messages.apiKeyNameRequired);
    const secret = newApiKeySecret();
    const created = await this.db.transaction().execute(async (trx) => {
      await lockAccountRow(trx, accountId);
      if ((await store.countKeys(trx, accountId)) >= API_KEYS_PER_ACCOUNT) throw badRequest(Messages.apiKeyLimit);
      return store.insertKey(trx, {
        accountId,
        name: apiKeyName,
        keyHash: hashApiKey(secret).toString('hex'),
        createdBy: userId,
      });
    });
    return { ...created, key: { keyId: created.id, key: secret } };
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
}

function found(key: ApiKey | undefined): ApiKey {
  if (!key) throw notFound(Messages.apiKeyNotFound);
  return key;
}
