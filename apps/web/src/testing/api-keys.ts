import type { ApiKey, ApiKeyList } from '@ebs/contract';

/** An API key as the key list answers it, created and updated 2026-11-21 12:00 UTC. */
export const apiKey = (id: string, name: string, status: ApiKey['status']): ApiKey => ({
  id,
  apiKeyId: id,
  name,
  apiKeyName: name,
  status,
  createdAt: '2026-11-21T12:00:00.000Z',
  updatedAt: '2026-11-21T12:00:00.000Z',
});

/** The first page (100 at offset 0) of a list holding exactly `apiKeys`. */
export const keyList = (apiKeys: ApiKey[]): ApiKeyList => ({
  apiKeys,
  offset: 0,
  limit: 100,
  total: apiKeys.length,
  count: apiKeys.length,
});
