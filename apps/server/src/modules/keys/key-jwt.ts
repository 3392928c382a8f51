import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { badRequest, JWT_MAX_LIFETIME_SECONDS, type JwtAlgorithm, KeyRuleMessages } from '@ebs/contract';

/**
 * JWT-signed requests (docs/api.md "JWT-signed requests"): a key may require every request to carry
 * `Authorization: Bearer <JWT>` signed with the private half of one of the public keys uploaded on
 * it, so that a browser never holds the key's secret. Checked with Node's own crypto, no library:
 * a compact JWS, RS256 or ES256, the algorithm fixed by the public key (never by the token), `kid`
 * naming the public key, `exp` required and at most a day ahead.
 */

/** The PEM a customer uploaded, checked and written one way (SPKI), with the algorithm it signs with. */
export function readPublicKeyPem(pem: string, n: number): { algorithm: JwtAlgorithm; pem: string } {
  if (/PRIVATE KEY/.test(pem)) throw badRequest(KeyRuleMessages.pemPrivate(n));
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw badRequest(KeyRuleMessages.pemInvalid(n));
  }
  const details = key.asymmetricKeyDetails ?? {};
  let algorithm: JwtAlgorithm;
  if (key.asymmetricKeyType === 'rsa') {
    // Bounded both ways: a short key can be broken, a huge one (or a huge exponent) makes every
    // verification cost milliseconds.
    const bits = details.modulusLength ?? 0;
    if (bits < 2048 || bits > 4096 || details.publicExponent !== 65537n)
      throw badRequest(KeyRuleMessages.pemRsaSize(n, bits));
    algorithm = 'RS256';
  } else if (key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1') {
    algorithm = 'ES256';
  } else {
    throw badRequest(KeyRuleMessages.pemInvalid(n));
  }
  return { algorithm, pem: key.export({ type: 'spki', format: 'pem' }).toString() };
}

/** Verified tokens per key kept for their lifetime: a browser sends one token many times. */
const VERIFIED_MAX = 1000;
/** Clocks differ: a token is taken this many seconds past its exp, or before its nbf. */
const LEEWAY_SECONDS = 30;

const json = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const at = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The public keys of one API key, and the tokens they verified. */
export class JwtVerifier {
  private readonly keys = new Map<string, { algorithm: JwtAlgorithm; key: KeyObject; signatureBytes: number }>();
  /** Token → its exp in ms. */
  private readonly verified = new Map<string, number>();

  constructor(publicKeys: ReadonlyArray<{ id: string; algorithm: JwtAlgorithm; pem: string }>) {
    for (const k of publicKeys) {
      const key = createPublicKey(k.pem);
      // A signature of another length cannot match: refused before any arithmetic.
      const signatureBytes = k.algorithm === 'ES256' ? 64 : (key.asymmetricKeyDetails?.modulusLength ?? 0) / 8;
      this.keys.set(k.id, { algorithm: k.algorithm, key, signatureBytes });
    }
  }

  /** Why the Authorization header does not carry a valid token; null when it does. */
  refusal(authorization: string | undefined, now = Date.now()): string | null {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) return 'missing';
    const expiresAt = this.verified.get(token);
    if (expiresAt !== undefined) {
      if (now <= expiresAt + LEEWAY_SECONDS * 1000) return null;
      this.verified.delete(token);
    }
    const parts = token.split('.');
    if (parts.length !== 3) return 'it must be three base64url parts: header.payload.signature';
    const [head = '', body = '', signature = ''] = parts;
    const header = json(head);
    if (!header || typeof header.kid !== 'string' || typeof header.alg !== 'string') {
      return 'its header must name alg (RS256 or ES256) and kid';
    }
    const publicKey = this.keys.get(header.kid);
    if (!publicKey) return `kid ${header.kid.slice(0, 40)} is not one of this key's public keys`;
    if (header.alg !== publicKey.algorithm) return `kid ${header.kid} is an ${publicKey.algorithm} key`;
    const signatureBytes = Buffer.from(signature, 'base64url');
    const signed =
      signatureBytes.length === publicKey.signatureBytes &&
      verify(
        'sha256',
        Buffer.from(`${head}.${body}`),
        publicKey.algorithm === 'ES256' ? { key: publicKey.key, dsaEncoding: 'ieee-p1363' } : publicKey.key,
        signatureBytes,
      );
    if (!signed) return 'the signature does not match the public key';
    const claims = json(body);
    if (!claims) return 'its payload is not a JSON object';
    const { exp, nbf } = claims;
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return 'it has no exp claim';
    const seconds = now / 1000;
    if (exp + LEEWAY_SECONDS < seconds) return `it expired at ${at(exp)}`;
    if (exp > seconds + JWT_MAX_LIFETIME_SECONDS + LEEWAY_SECONDS) return 'its exp is more than 24 hours ahead';
    if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf))) return 'its nbf claim is not a number';
    if (typeof nbf === 'number' && nbf - LEEWAY_SECONDS > seconds) return `it is not valid before ${at(nbf)}`;
    if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
    this.verified.set(token, exp * 1000);
    return null;
  }
}
