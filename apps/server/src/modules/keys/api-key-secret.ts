import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes (256 bits), base64url: 43 characters that travel unescaped in a query string. */
export const newApiKeySecret = (): string => randomBytes(32).toString('base64url');

/**
 * The key is stored only as its SHA-256. A slow password hash is not needed: the key is 256 random
 * bits, so a leaked hash cannot be reversed by guessing, and the gateway checks it on every call.
 */
export const hashApiKey = (key: string): Buffer => hash('sha256', key, 'buffer');

/** Constant-time comparison of a presented key with a stored hash (decoded once by the caller). */
export function apiKeyMatches(key: string, storedHash: Buffer): boolean {
  const presented = hashApiKey(key);
  return storedHash.length === presented.length && timingSafeEqual(storedHash, presented);
}
