import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { KeyRuleMessages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { JwtVerifier, readPublicKeyPem } from './key-jwt.ts';

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

/** A public key of 4104 bits, made once (making one takes seconds): just past what is accepted. */
const RSA_4104_PUBLIC_PEM = [
  '-----BEGIN PUBLIC KEY-----',
  'MIICIzANBgkqhkiG9w0BAQEFAAOCAhAAMIICCwKCAgIAjnos1BFTVoag0cN1P8jB',
  'zNbOmb7tRSHN1KwCU4tiU9b83tX4VN4cKrDt6s+SWTzn5dTd15jvPSxAWypnjJNO',
  'pbTW5vFpzBsTO+lLjmnRUnixllEwvKYcAxEZoJpnX7/kDfGq2WkBeucS1xtLHhok',
  'oPZetT4wnTk6B1v5Vyrkk4itHuhQ+50FeyZ8Dc1HMPa6zSTRdYQT6WumY+IOL65g',
  'zXcJffDI0rvSL6djhLNCc/9+8ADpckcMK5QUsHR5Q3YUosUQ+3nMJiCiwmlRnXCk',
  'm1RwSUDDM2dXqQV+wGM+zW7XzNX4xbqNQzQdy+rjwp9nTMvtz07Xb9yST4RQMKpB',
  'PnLCng6mtuGo3eHXULG86yc1467B1HO+v1/vhwNGYRPfGPhWgUu7zyha9vCSWgk4',
  '6CY73cIw1GXvSNlJWShleBs8LI/a4amf40vvVTyR9hovffv9nvmIkZIRgnNUc6ZD',
  'O7FSwjjIzRXLs7hkPPGRgwWmHVSyFNDrcotyx5y6TmDgjTe9iZI2NPrQfQf6Mcjj',
  '463ivJhGT7WFTrzaIQyazC4id852w2a8cI+NR5AyShx7S0nnYF+6TjGxOB5BkhUL',
  'I1g8nazNkvBpHPTyundlHbw6tsEP+m8PEuEqNJqjQ+1ySLFUU3vZYqLk5XjM7Sak',
  'iQai478jCCPKCr3lYw0BKnDRAgMBAAE=',
  '-----END PUBLIC KEY-----',
].join('\n');

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS as a customer's backend would make it. */
function jwt(header: Record<string, unknown>, claims: Record<string, unknown>, privateKey: KeyObject): string {
  const signingInput = `${part(header)}.${part(claims)}`;
  const es = header.alg === 'ES256';
  const signature = sign(
    'sha256',
    Buffer.from(signingInput),
    es ? { key: privateKey, dsaEncoding: 'ieee-p1363' } : privateKey,
  );
  return `${signingInput}.${signature.toString('base64url')}`;
}

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const inSeconds = (s: number) => NOW / 1000 + s;

describe('JWT-signed requests', () => {
  const verifier = new JwtVerifier([
    { id: 'ec-key', algorithm: 'ES256', pem: pem(ec.publicKey) },
    { id: 'rsa-key', algorithm: 'RS256', pem: pem(rsa.publicKey) },
  ]);
  const bearer = (token: string) => `Bearer ${token}`;

  it('accepts an ES256 or RS256 token naming its public key in kid, with exp within a day', () => {
    const es = jwt({ alg: 'ES256', kid: 'ec-key', typ: 'JWT' }, { exp: inSeconds(3600) }, ec.privateKey);
    const rs = jwt({ alg: 'RS256', kid: 'rsa-key' }, { exp: inSeconds(86_400), sub: 'user-1' }, rsa.privateKey);
    expect(verifier.refusal(bearer(es), NOW)).toBeNull();
    expect(verifier.refusal(bearer(rs), NOW)).toBeNull();
    // Verified once, then known until it expires.
    expect(verifier.refusal(bearer(es), NOW + 3_000_000)).toBeNull();
    expect(verifier.refusal(bearer(es), NOW + 3_700_000)).toMatch(/^it expired at /);
  });

  it('says why any other token is refused', () => {
    const good = { exp: inSeconds(600) };
    const cases: Array<[string | undefined, string | RegExp]> = [
      [undefined, 'missing'],
      ['Basic abc', 'missing'],
      [bearer('abc.def'), 'it must be three base64url parts: header.payload.signature'],
      [bearer(jwt({ alg: 'ES256' }, good, ec.privateKey)), 'its header must name alg (RS256 or ES256) and kid'],
      [
        bearer(jwt({ alg: 'ES256', kid: 'other' }, good, ec.privateKey)),
        "kid other is not one of this key's public keys",
      ],
      // The algorithm is the public key's, never the token's: no HS256 with the public key as secret, no "none".
      [bearer(jwt({ alg: 'RS256', kid: 'ec-key' }, good, rsa.privateKey)), 'kid ec-key is an ES256 key'],
      [bearer(`${part({ alg: 'none', kid: 'ec-key' })}.${part(good)}.`), 'kid ec-key is an ES256 key'],
      [
        bearer(jwt({ alg: 'ES256', kid: 'ec-key' }, good, stranger.privateKey)),
        'the signature does not match the public key',
      ],
      [bearer(jwt({ alg: 'ES256', kid: 'ec-key' }, {}, ec.privateKey)), 'it has no exp claim'],
      [
        bearer(jwt({ alg: 'ES256', kid: 'ec-key' }, { exp: inSeconds(-120) }, ec.privateKey)),
        /^it expired at 2026-11-26T11:58:00/,
      ],
      [
        bearer(jwt({ alg: 'ES256', kid: 'ec-key' }, { exp: inSeconds(2 * 86_400) }, ec.privateKey)),
        'its exp is more than 24 hours ahead',
      ],
      [
        bearer(jwt({ alg: 'ES256', kid: 'ec-key' }, { exp: inSeconds(600), nbf: inSeconds(300) }, ec.privateKey)),
        /^it is not valid before /,
      ],
      [
        bearer(jwt({ alg: 'ES256', kid: 'ec-key' }, { exp: inSeconds(600), nbf: 'soon' }, ec.privateKey)),
        'its nbf claim is not a number',
      ],
      // A signature of the wrong length is refused before it is checked.
      [
        bearer(`${part({ alg: 'RS256', kid: 'rsa-key' })}.${part(good)}.${'A'.repeat(2732)}`),
        'the signature does not match the public key',
      ],
    ];
    for (const [header, reason] of cases) {
      const why = verifier.refusal(header, NOW);
      if (typeof reason === 'string') expect(why).toBe(reason);
      else expect(why).toMatch(reason);
    }
    // A token whose claims were changed after signing.
    const token = jwt({ alg: 'ES256', kid: 'ec-key' }, good, ec.privateKey).split('.');
    const forged = [token[0], part({ exp: inSeconds(80_000) }), token[2]].join('.');
    expect(verifier.refusal(bearer(forged), NOW)).toBe('the signature does not match the public key');
  });

  it('takes RSA keys of 2048 bits or more and P-256 keys, as SPKI PEM, and refuses the rest by number', () => {
    expect(readPublicKeyPem(pem(ec.publicKey), 1)).toEqual({ algorithm: 'ES256', pem: pem(ec.publicKey) });
    const pkcs1 = rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(readPublicKeyPem(pkcs1, 1)).toEqual({ algorithm: 'RS256', pem: pem(rsa.publicKey) });
    const refusal = (text: string, n: number) => {
      try {
        readPublicKeyPem(text, n);
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
    const ed = generateKeyPairSync('ed25519').publicKey;
    expect(refusal(pem(weak), 2)).toBe(KeyRuleMessages.pemRsaSize(2, 1024));
    // A huge key, or a huge exponent, would make each verification cost milliseconds.
    expect(refusal(RSA_4104_PUBLIC_PEM, 1)).toBe(KeyRuleMessages.pemRsaSize(1, 4104));
    const exponent = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0xffff_ffff }).publicKey;
    expect(refusal(pem(exponent), 1)).toBe(KeyRuleMessages.pemRsaSize(1, 2048));
    expect(refusal(pem(p384), 1)).toBe(KeyRuleMessages.pemInvalid(1));
    expect(refusal(pem(ed), 1)).toBe(KeyRuleMessages.pemInvalid(1));
    expect(refusal('not a key', 3)).toBe(KeyRuleMessages.pemInvalid(3));
    const privatePem = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(refusal(privatePem, 1)).toBe(KeyRuleMessages.pemPrivate(1));
  });
});
