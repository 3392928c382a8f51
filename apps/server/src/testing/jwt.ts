import { type KeyObject, sign } from 'node:crypto';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT signed with ES256 as a customer's backend would make one for a key that requires it. */
export function es256(kid: string, exp: number, privateKey: KeyObject): string {
  const input = `${part({ alg: 'ES256', kid, typ: 'JWT' })}.${part({ exp })}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}
