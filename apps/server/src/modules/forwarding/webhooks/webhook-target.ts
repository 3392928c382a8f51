import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { AppError, ForwardingMessages } from '@ebs/contract';

/** Why a webhook URL was turned down; every kind is the user's input, so a 400. */
export class WebhookTargetError extends AppError {
  constructor(
    readonly reason: 'invalid' | 'refused' | 'unreachable',
    message: string,
  ) {
    super('Bad Request', message);
  }
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** The address as bytes (4 or 16), or undefined when it is not an IP address. */
function addressBytes(address: string): number[] | undefined {
  const kind = isIP(address);
  if (kind === 4) return address.split('.').map(Number);
  if (kind !== 6) return undefined;
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => {
    const n = Number.parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

const cidr = (text: string) => {
  const [address = '', bits = '0'] = text.split('/');
  return { bytes: addressBytes(address) ?? [], bits: Number(bits) };
};

const inRange = (bytes: number[], range: { bytes: number[]; bits: number }) => {
  if (bytes.length !== range.bytes.length) return false;
  for (let bit = 0; bit < range.bits; bit += 8) {
    const mask = range.bits - bit >= 8 ? 0xff : (0xff << (8 - (range.bits - bit))) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((range.bytes[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
};

/**
 * Addresses a webhook must not reach: this host, the private networks, the cloud metadata service
 * (169.254.169.254, fd00:ec2::254) and everything not routed on the internet.
 */
const BLOCKED = [
  '0.0.0.0/8', // unspecified, "this network"
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, metadata
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
  '::/128',
  '::1/128',
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard-only
  '2001:db8::/32', // documentation
  'fc00::/7', // unique-local, metadata
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
].map(cidr);

/** IPv6 ranges that carry an IPv4 address, and where it sits: judged by that address. */
const EMBEDDING = [
  { range: cidr('::ffff:0:0/96'), at: 12 }, // IPv4-mapped
  { range: cidr('::/96'), at: 12 }, // IPv4-compatible (deprecated)
  { range: cidr('64:ff9b::/96'), at: 12 }, // NAT64
  { range: cidr('2002::/16'), at: 2 }, // 6to4
];

/** True for an address a webhook must not reach (and for anything that is not an IP address). */
export function isPrivateAddress(address: string): boolean {
  const bytes = addressBytes(address);
  if (!bytes) return true;
  if (bytes.length === 16) {
    for (const { range, at } of EMBEDDING) {
      const ipv4 = bytes.slice(at, at + 4);
      if (inRange(bytes, range) && BLOCKED.some((blocked) => inRange(ipv4, blocked))) return true;
    }
  }
  return BLOCKED.some((range) => inRange(bytes, range));
}

/** The URL when it is http(s) without credentials in it; otherwise a WebhookTargetError. */
export function parseWebhookUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookTargetError('invalid', ForwardingMessages.webhookUrlInvalid);
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname || parsed.username || parsed.password) {
    throw new WebhookTargetError('invalid', ForwardingMessages.webhookUrlInvalid);
  }
  return parsed;
}

const lookupFailure = (host: string, error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOTFOUND' || code === 'ENODATA' ? `${host} was not found` : `${host} could not be resolved`;
};

/**
 * Resolves the URL's host and refuses it when any of its addresses is private (unless allowed):
 * an attacker's name may answer with a public and a private address at once. The request must then
 * connect to one of the returned addresses (pinnedLookup), never resolve the name again.
 */
export async function checkWebhookUrl(url: string, options: { allowPrivate: boolean }): Promise<CheckedAddress[]> {
  const parsed = parseWebhookUrl(url);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: CheckedAddress[];
  try {
    const found = await lookup(host, { all: true });
    addresses = found
      .filter((a) => a.family === 4 || a.family === 6)
      .map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  } catch (error) {
    throw new WebhookTargetError('unreachable', ForwardingMessages.webhookUnreachable(lookupFailure(host, error)));
  }
  if (addresses.length === 0) {
    throw new WebhookTargetError('unreachable', ForwardingMessages.webhookUnreachable(`${host} was not found`));
  }
  if (!options.allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
    throw new WebhookTargetError('refused', ForwardingMessages.webhookTargetRefused);
  }
  return addresses;
}

/** A socket lookup that answers only with the checked addresses, so DNS cannot change them. */
export function pinnedLookup(addresses: CheckedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const wanted =
      options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`${hostname} has no checked IPv${wanted} address`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}
