import {
  badRequest,
  KEY_RULE_LABELS,
  type KeyRuleList,
  KeyRuleMessages,
  parseKeyRuleList,
  type UpdateApiKeySettingsBody,
} from '@ebs/contract';
import { readPublicKeyPem } from './key-jwt.ts';
import type { LimitCeilings } from './key-limits.ts';
import type { StoredKeySettings } from './keys.store.ts';

export interface SettingsChange {
  settings: Partial<StoredKeySettings>;
  /** The public keys the key keeps, when the change gives them: saved ones by id, new ones read from their PEM. */
  jwtKeys?: Array<{ id: string } | { algorithm: 'RS256' | 'ES256'; pem: string }>;
}

const LISTS = Object.keys(KEY_RULE_LABELS) as KeyRuleList[];

/**
 * A settings change as it will be stored: every list entry checked and written one way, limits
 * under the deployment's ceilings, an expiry in the future, public keys read from their PEM. The
 * first wrong part is refused with a message naming it, before anything is written.
 */
export function readSettingsChange(body: UpdateApiKeySettingsBody, ceilings: LimitCeilings, now: Date): SettingsChange {
  const settings: Partial<StoredKeySettings> = {};
  for (const list of LISTS) {
    const entries = body[list];
    if (entries === undefined) continue;
    const parsed = parseKeyRuleList(list, entries);
    if (!parsed.ok) throw badRequest(parsed.message);
    settings[list] = parsed.values;
  }
  const limits = [
    ['requestsPerSecond', 'Requests per second', ceilings.perSecond],
    ['requestsPerDay', 'Requests per day', ceilings.perDay],
    // Compute units have no deployment ceiling: the schema's bounds are all there is.
    ['computeUnitsPerSecond', 'Compute units per second', 0],
    ['computeUnitsPerDay', 'Compute units per day', 0],
  ] as const;
  for (const [field, label, ceiling] of limits) {
    const value = body[field];
    if (value === undefined) continue;
    if (value !== null && ceiling > 0 && value > ceiling)
      throw badRequest(KeyRuleMessages.limitAboveCeiling(label, ceiling));
    settings[field] = value;
  }
  if (body.expiresAt !== undefined) {
    const expiresAt = body.expiresAt === null ? null : new Date(body.expiresAt);
    if (expiresAt && !(expiresAt.getTime() > now.getTime())) throw badRequest(KeyRuleMessages.expiryInPast);
    settings.expiresAt = expiresAt;
  }
  if (body.jwtRequired !== undefined) settings.jwtRequired = body.jwtRequired;
  const jwtKeys = body.jwtPublicKeys?.map((k, i) => ('id' in k ? { id: k.id } : readPublicKeyPem(k.pem, i + 1)));
  return jwtKeys ? { settings, jwtKeys } : { settings };
}
