import { timingSafeEqual } from 'node:crypto';
import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import { apiKeyMatches } from './api-key-secret.ts';
import type { KeyState } from './key-cache.ts';

/** What a request shows of itself to a key's checks. */
export interface KeyRequest {
  /** The secret, from the query or the header; may be left out when the key requires a JWT. */
  key: string | undefined;
  authorization: string | undefined;
  origin: string | undefined;
  referer: string | undefined;
  /** The client address as TRUST_PROXY defines it. */
  ip: string;
}

export interface KeyRefusal {
  httpStatus: 401 | 403;
  code: number;
  message: string;
  /** A wrong secret or token: counted against the client address's failed checks. */
  wrongCredential: boolean;
}

const refusal = (httpStatus: 401 | 403, message: string, wrongCredential = false): KeyRefusal => ({
  httpStatus,
  code: httpStatus === 401 ? RpcErrorCodes.unauthorized : RpcErrorCodes.forbidden,
  message,
  wrongCredential,
});

/**
 * The secret matches the key's, or the one a roll replaced while its overlap lasts. The current
 * secret, once it has matched its hash, is remembered on the key's state and compared in constant
 * time: a hash per request would cost the gateway more than the rest of the key check.
 */
function secretMatches(state: KeyState, key: string, now: number): boolean {
  const known = state.verified;
  if (known !== undefined && known.length === key.length && timingSafeEqual(Buffer.from(known), Buffer.from(key))) {
    return true;
  }
  if (apiKeyMatches(key, state.keyHash)) {
    state.verified = key;
    return true;
  }
  return state.previousKeyHash !== null && now < state.previousUntil && apiKeyMatches(key, state.previousKeyHash);
}

/**
 * Why a request may not use this key, or null when it may (docs/api.md "Locking a key down"): the
 * secret (or, for a key that requires one, the JWT), the key's own state and expiry, its account's
 * suspension, then its allowed origins and client addresses. The allowed methods and contracts are
 * checked call by call (KeyPolicy.callRefusal), so that a batch's other calls still pass.
 */
export function keyRefusal(state: KeyState, request: KeyRequest, now = Date.now()): KeyRefusal | null {
  if (request.key !== undefined) {
    if (!secretMatches(state, request.key, now)) return refusal(401, RpcMessages.wrongKey, true);
  } else if (!state.jwt) {
    return refusal(401, RpcMessages.missingKey);
  }
  if (state.deleted) return refusal(401, RpcMessages.deletedKey);
  if (state.expiresAt !== null && now >= state.expiresAt) {
    return refusal(403, RpcMessages.keyExpired(new Date(state.expiresAt).toISOString()));
  }
  if (!state.active) return refusal(403, RpcMessages.inactiveKey);
  if (!state.accountEnabled) return refusal(403, RpcMessages.suspended);
  if (state.jwt) {
    const why = state.jwt.refusal(request.authorization, now);
    if (why === 'missing') return refusal(401, RpcMessages.jwtMissing);
    if (why !== null) return refusal(401, RpcMessages.jwtInvalid(why), true);
  }
  if (state.policy) {
    const why = state.policy.originRefusal(request.origin, request.referer) ?? state.policy.addressRefusal(request.ip);
    if (why !== null) return refusal(403, why);
  }
  return null;
}
