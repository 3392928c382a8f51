import {
  type ApiKeySettings,
  type JwtPublicKeyInfo,
  KEY_RULE_LABELS,
  type KeyRuleList,
  type UpdateApiKeySettingsBody,
} from '@ebs/contract';

/** The public keys as edited: the saved ones still kept, and the PEM texts pasted since. */
export interface JwtKeysDraft {
  kept: JwtPublicKeyInfo[];
  added: string[];
}

/** The security form's values: the settings, with the public keys as a draft. */
export interface SecurityValues extends Record<KeyRuleList, string[]> {
  requestsPerSecond: number | null;
  requestsPerDay: number | null;
  computeUnitsPerSecond: number | null;
  computeUnitsPerDay: number | null;
  expiresAt: string | null;
  jwtRequired: boolean;
  jwtKeys: JwtKeysDraft;
}

export const RULE_LISTS = Object.keys(KEY_RULE_LABELS) as KeyRuleList[];

export const securityValues = (settings: ApiKeySettings): SecurityValues => ({
  allowedOrigins: settings.allowedOrigins,
  allowedIps: settings.allowedIps,
  allowedMethods: settings.allowedMethods,
  allowedContracts: settings.allowedContracts,
  requestsPerSecond: settings.requestsPerSecond,
  requestsPerDay: settings.requestsPerDay,
  computeUnitsPerSecond: settings.computeUnitsPerSecond,
  computeUnitsPerDay: settings.computeUnitsPerDay,
  expiresAt: settings.expiresAt,
  jwtRequired: settings.jwtRequired,
  jwtKeys: { kept: settings.jwtPublicKeys, added: [] },
});

export const publicKeyCount = (draft: JwtKeysDraft | undefined) => (draft ? draft.kept.length + draft.added.length : 0);

const keysChanged = (saved: JwtPublicKeyInfo[], draft: JwtKeysDraft) =>
  draft.added.length > 0 || draft.kept.length !== saved.length;

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((entry, i) => entry === b[i]);

/** A key's own limits: calls and compute units, per second and per UTC day (null: none of its own). */
const LIMITS = ['requestsPerSecond', 'requestsPerDay', 'computeUnitsPerSecond', 'computeUnitsPerDay'] as const;

const sameInstant = (a: string | null, b: string | null) =>
  a === b || (a !== null && b !== null && Date.parse(a) === Date.parse(b));

/** What the form changes of the saved settings: only those fields are sent. */
export function settingsChanges(saved: ApiKeySettings, values: SecurityValues): UpdateApiKeySettingsBody {
  const body: UpdateApiKeySettingsBody = {};
  for (const list of RULE_LISTS) {
    if (!sameList(saved[list], values[list])) body[list] = values[list];
  }
  for (const limit of LIMITS) {
    const value = values[limit] ?? null;
    if (saved[limit] !== value) body[limit] = value;
  }
  if (!sameInstant(saved.expiresAt, values.expiresAt ?? null)) body.expiresAt = values.expiresAt ?? null;
  if (saved.jwtRequired !== values.jwtRequired) body.jwtRequired = values.jwtRequired;
  // The whole list the key keeps: the saved keys by id (their kid stays), the pasted ones by PEM.
  if (keysChanged(saved.jwtPublicKeys, values.jwtKeys)) {
    body.jwtPublicKeys = [
      ...values.jwtKeys.kept.map(({ id }) => ({ id })),
      ...values.jwtKeys.added.map((pem) => ({ pem })),
    ];
  }
  return body;
}

/** Whether the form holds a change of the saved settings (what closing it would drop). */
export const hasChanges = (saved: ApiKeySettings, values: SecurityValues) =>
  Object.keys(settingsChanges(saved, values)).length > 0;
