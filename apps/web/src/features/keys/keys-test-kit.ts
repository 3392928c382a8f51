import type { ApiKeySettings } from '@ebs/contract';

/** A key's security settings: nothing locked down unless `patch` says so. */
export const keySettings = (patch: Partial<ApiKeySettings> = {}): ApiKeySettings => ({
  allowedOrigins: [],
  allowedIps: [],
  allowedMethods: [],
  allowedContracts: [],
  requestsPerSecond: null,
  requestsPerDay: null,
  computeUnitsPerSecond: null,
  computeUnitsPerDay: null,
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
