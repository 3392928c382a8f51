import type { ApiKey, ApiKeyList, ApiKeySettings } from '@ebs/contract';

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

/** A key's security settings: nothing locked down unless `patch` says so. */
export const keySettings = (patch: Partial<ApiKeySettings> = {}): ApiKeySettings => ({
  allowedOrigins: [],
  allowedIps: [],
  allowedMethods: [],
  allowedContracts: [],
  requestsPerSecond: null,
  requestsPerDay: null,
  jwtRequired: false,
  jwtPublicKeys: [],
  expiresAt: null,
  ...patch,
});

/** An EC P-256 public key in PEM, as a customer pastes it. */
export const PUBLIC_PEM = [
  '-----BEGIN PUBLIC KEY-----',
  'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEVs/o5+uQbTjL3chynL4wXgUg2R9',
  'q9UU8I5mEovUf86QZ7kOBIjJwqnzD1omageEHWwHdBO6B+dFabmdT9POxg==',
  '-----END PUBLIC KEY-----',
].join('\n');
