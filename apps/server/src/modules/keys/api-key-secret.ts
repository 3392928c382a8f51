import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes (256 bits), base64url: 43 characters that travel unescaped in a query string. */
export const newApiKeySecret = (): string => randomBytes(32).toString('base64url');

/**
 * The key is stored only as its SHA-256. A slow password hash is not needed: the key is 256 random
 * bits, so a leaked hash cannot be reversed by guessing, and the gateway checks it on every call.
 */
export const hashApiKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** Constant-time comparison of a presented key with a stored hash (hex). */
export function apiKeyMatches(key: string, storedHashHex: string): boolean {
  const stored = Buffer.from(storedHashHex, 'hex');
  const presented = hashApiKey(key);
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}
