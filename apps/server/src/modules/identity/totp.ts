import { createHmac, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** What every authenticator app reads: SHA-1, 6 digits, 30-second steps (RFC 6238's defaults). */
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** One step either side of now: a phone clock a little off still works. */
const DRIFT_STEPS = 1;

/** A new authenticator secret: 160 random bits, base32 as apps expect it. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app scans from the QR code. */
export const totpUri = (secret: string, issuer: string, label: string) =>
  new TOTP({ issuer, label, secret: Secret.fromBase32(secret), ...TOTP_SETTINGS }).toString();

/** The 30-second step whose code `code` is, near `now`; null when it is no current code. */
export function matchingStep(secret: string, code: string, now: number): number | null {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), ...TOTP_SETTINGS });
  const delta = totp.validate({ token: code, timestamp: now, window: DRIFT_STEPS });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/** Letters and digits that cannot be mistaken for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `count` different recovery codes of 10 characters (about 50 bits each), shown as "xxxxx-xxxxx". */
export function newRecoveryCodes(count: number): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    codes.add(`${chars.slice(0, 5)}-${chars.slice(5)}`);
  }
  return [...codes];
}

/** People type recovery codes with or without the dash, in either case. */
const normalizeRecoveryCode = (code: string) => code.replace(/[-\s]/g, '').toLowerCase();

/** Recovery codes are stored as an HMAC bound to their user: a read of the table reveals none. */
export const hashRecoveryCode = (hmacSecret: string, userId: string, code: string) =>
  createHmac('sha256', hmacSecret)
    .update(`${userId}:RECOVERY:${normalizeRecoveryCode(code)}`)
    .digest('hex');
