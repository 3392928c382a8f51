import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

export type CodePurpose = 'SIGN_UP' | 'RESET_PASSWORD';

/** A 6-digit code from a cryptographic source. */
export const newCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');

/** Codes are stored as an HMAC so a read of the table does not reveal them (10^6 codes are easy to brute force). */
export const hashCode = (secret: string, userId: string, purpose: CodePurpose, code: string) =>
  createHmac('sha256', secret).update(`${userId}:${purpose}:${code}`).digest('hex');

export const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/** "jane@example.com" → "j***@e***.com", as a provider shows a code's destination. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}***@${host.slice(0, 1)}***${tld}`;
}
