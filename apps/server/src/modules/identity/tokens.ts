import { createHash, createPublicKey, type KeyObject, randomBytes } from 'node:crypto';
import { tokenExpired, unauthorized } from '@ebs/contract';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface IdTokenClaims {
  sub: string;
  sid: string;
  email: string;
}

const AUDIENCE = 'ebs-console';

/** Short-lived identity tokens: ES256 JWTs naming the user and the session they belong to. */
export class IdTokens {
  private readonly publicKey: KeyObject;

  constructor(
    private readonly privateKey: KeyObject,
    private readonly issuer: string,
    readonly ttlSeconds: number,
  ) {
    this.publicKey = createPublicKey(privateKey);
  }

  sign(claims: IdTokenClaims & { givenName: string; familyName: string }): Promise<string> {
    return new SignJWT({
      sid: claims.sid,
      email: claims.email,
      given_name: claims.givenName,
      family_name: claims.familyName,
      token_use: 'id',
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(this.privateKey);
  }

  /** Expired (with a valid signature) → CognitoTokenExpired; anything else wrong → Token expired. */
  async verify(token: string): Promise<IdTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        issuer: this.issuer,
        audience: AUDIENCE,
        algorithms: ['ES256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.email !== 'string') {
        throw unauthorized();
      }
      return { sub: payload.sub, sid: payload.sid, email: payload.email };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw tokenExpired();
      throw unauthorized();
    }
  }
}

/** Refresh tokens are random; only their SHA-256 is stored. */
/** A random secret handed out once (refresh tokens, sign-in challenges, third-party sign-in flows); only its hash is stored. */
export const newOpaqueToken = () => randomBytes(32).toString('base64url');
export const hashOpaqueToken = (token: string) => createHash('sha256').update(token).digest('hex');
