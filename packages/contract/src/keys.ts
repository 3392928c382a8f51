import { type Static, Type } from '@sinclair/typebox';
import { defaulted } from './endpoint.ts';

/** spec A §3, §4: an API key is ACTIVE or INACTIVE; a deleted key is gone from the list. */
export const ApiKeyStatus = Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]);
export type ApiKeyStatus = Static<typeof ApiKeyStatus>;

/** Ours: the spec sets no bounds; the console lists 100 keys, so an account holds at most 100. */
export const API_KEY_NAME_MAX = 100;
export const API_KEYS_PER_ACCOUNT = 100;
/**
 * Ours: keys an account may create in any rolling hour, deleted ones included. The gateway's
 * limits are per key; without this, minting keys would multiply them.
 */
export const API_KEYS_CREATED_PER_HOUR = 20;
/** spec A §7, §9: the console fetches 100 keys at offset 0. */
export const API_KEY_LIST_LIMIT = 100;

export const ApiKey = Type.Object({
  id: Type.String(),
  apiKeyId: Type.String(),
  name: Type.String(),
  apiKeyName: Type.String(),
  status: ApiKeyStatus,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type ApiKey = Static<typeof ApiKey>;

/** The creation answer: the key itself is in `key` and is never shown again. */
export const CreatedApiKey = Type.Composite([
  ApiKey,
  Type.Object({ key: Type.Object({ keyId: Type.String(), key: Type.String() }) }),
]);
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const ApiKeyListQuery = Type.Object(
  {
    limit: defaulted(Type.Integer({ minimum: 1, maximum: API_KEY_LIST_LIMIT, default: 10 })),
    offset: defaulted(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);
export const ApiKeyList = Type.Object({
  apiKeys: Type.Array(ApiKey),
  offset: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  count: Type.Integer(),
});
export type ApiKeyList = Static<typeof ApiKeyList>;

const KeyName = Type.String({ maxLength: API_KEY_NAME_MAX });
/** POST /api/v1.0/key/ {apiKeyName} (spec A §7). */
export const CreateApiKeyBody = Type.Object({ apiKeyName: KeyName }, { additionalProperties: false });
/** POST /api/v1.0/key {name}: the same create, issued from the account area (spec A §7). */
export const CreateApiKeyByNameBody = Type.Object({ name: KeyName }, { additionalProperties: false });
export const UpdateApiKeyNameBody = Type.Object({ apiKeyName: KeyName }, { additionalProperties: false });
export const ApiKeyParams = Type.Object({ apiKeyId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

/** A key name counts once it has a visible character. */
export const isApiKeyNameGiven = (name: unknown): name is string => typeof name === 'string' && name.trim() !== '';
