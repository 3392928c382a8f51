import { type Static, Type } from '@sinclair/typebox';

/**
 * A key's own security settings (ours, docs/api.md "Locking a key down"): the origins, client
 * addresses, methods and contracts it may be used for (an empty list means any), its own request
 * limits, JWT-signed requests, and an expiry date.
 */

/** Entries per list: more than the peers' 30, enough for a dapp's domains and a team's offices. */
export const KEY_RULE_ENTRIES_MAX = 100;
/** Public keys per API key a JWT may be signed with: one in use, one being introduced, one spare. */
export const JWT_PUBLIC_KEYS_MAX = 3;
/** A JWT's `exp` may lie at most this far ahead: a leaked token is worth a day at most. */
export const JWT_MAX_LIFETIME_SECONDS = 24 * 60 * 60;
/** The periods the old secret stays valid after a roll: none, 1 hour, 24 hours, 7 days. */
export const KEY_ROLL_OVERLAPS = [0, 3600, 86_400, 604_800] as const;
export type KeyRollOverlap = (typeof KEY_ROLL_OVERLAPS)[number];
/** The PEM text of a public key may be at most this long (an RSA 8192-bit key is about 1.5 kB). */
export const JWT_PEM_MAX_LENGTH = 4096;

export const JwtAlgorithm = Type.Union([Type.Literal('RS256'), Type.Literal('ES256')]);
export type JwtAlgorithm = Static<typeof JwtAlgorithm>;

export const JwtPublicKeyInfo = Type.Object({
  /** What a JWT's header names in `kid`. */
  id: Type.String({ format: 'uuid' }),
  algorithm: JwtAlgorithm,
  createdAt: Type.String({ format: 'date-time' }),
});
export type JwtPublicKeyInfo = Static<typeof JwtPublicKeyInfo>;

/** At most KEY_RULE_ENTRIES_MAX entries, each checked by its list's rule (key-rules.ts) for a message naming it. */
const RuleList = (description: string) =>
  Type.Array(Type.String({ maxLength: 1000 }), {
    // The schema's bound keeps a huge list from costing the server anything; past 100 the
    // list's own check answers with its message.
    maxItems: KEY_RULE_ENTRIES_MAX * 10,
    description: `${description}; at most ${KEY_RULE_ENTRIES_MAX} entries`,
  });
const Limit = (description: string) =>
  Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), Type.Null()], { description });

const settingsFields = {
  allowedOrigins: RuleList(
    'origins the key may be used from, matched against Origin or Referer: https://app.example.com, or https://*.example.com for its subdomains; empty: any',
  ),
  allowedIps: RuleList('client addresses the key may be used from: IPv4 or IPv6 addresses and CIDR ranges; empty: any'),
  allowedMethods: RuleList('JSON-RPC methods the key may call, e.g. eth_call, or eth_* for a namespace; empty: any'),
  allowedContracts: RuleList(
    'contract addresses eth_call, eth_estimateGas, eth_createAccessList, eth_getLogs, eth_newFilter, eth_getCode, eth_getStorageAt and eth_getProof may name; simulations, traced calls and state overrides are then refused; empty: any',
  ),
  requestsPerSecond: Limit(
    'calls per second the key may make (each call of a batch counts); null: the deployment’s limit',
  ),
  requestsPerDay: Limit('calls per UTC day the key may make; null: the deployment’s limit'),
  computeUnitsPerSecond: Limit('compute units per second the key may spend (docs/api.md "Pricing"); null: no limit'),
  computeUnitsPerDay: Limit('compute units per UTC day the key may spend; null: no limit'),
  jwtRequired: Type.Boolean({
    description: 'every request must carry Authorization: Bearer <JWT> signed by one of the public keys',
  }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'after this instant the key is refused; null: never',
  }),
};

/** GET/POST /api/v1.0/key/{apiKeyId}/settings: the whole settings. */
export const ApiKeySettings = Type.Object({
  ...settingsFields,
  jwtPublicKeys: Type.Array(JwtPublicKeyInfo),
});
export type ApiKeySettings = Static<typeof ApiKeySettings>;

/**
 * POST /api/v1.0/key/{apiKeyId}/settings: any subset. `jwtPublicKeys` is the whole list the key
 * keeps: a saved public key named by its id (or its PEM again) keeps its id, the others are removed.
 */
export const UpdateApiKeySettingsBody = Type.Partial(
  Type.Object({
    ...settingsFields,
    jwtPublicKeys: Type.Array(
      Type.Union([
        Type.Object({ pem: Type.String({ maxLength: JWT_PEM_MAX_LENGTH }) }, { additionalProperties: false }),
        Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
      ]),
      {
        maxItems: JWT_PUBLIC_KEYS_MAX,
        description:
          'the public keys the key keeps: a new one as { pem } (RSA 2048 bits or more, or EC P-256), a saved one as { id } or its { pem }',
      },
    ),
  }),
  { additionalProperties: false },
);
export type UpdateApiKeySettingsBody = Static<typeof UpdateApiKeySettingsBody>;

/** POST /api/v1.0/key/{apiKeyId}/roll. */
export const RollApiKeyBody = Type.Object(
  {
    overlapSeconds: Type.Union(
      KEY_ROLL_OVERLAPS.map((s) => Type.Literal(s)),
      { description: 'how long the old secret stays valid: 0, 3600, 86400 or 604800 seconds' },
    ),
  },
  { additionalProperties: false },
);
export type RollApiKeyBody = Static<typeof RollApiKeyBody>;

/** The new secret, shown once. */
export const RolledApiKey = Type.Object({
  key: Type.Object({ keyId: Type.String(), key: Type.String() }),
  /** Until when the replaced secret still works (ISO 8601), or null when it stopped at once. */
  previousKeyWorksUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type RolledApiKey = Static<typeof RolledApiKey>;
