import { KEY_RULE_ENTRIES_MAX } from './key-settings.ts';

/**
 * The entries of a key's rule lists: how each is written, checked and stored. Shared by the server
 * (which checks every entry, whatever the console checked) and the console (which says what is
 * wrong before sending). Pure: no Node.js module, so it runs in the browser too.
 */

const quote = (entry: string) => `"${entry.length > 60 ? `${entry.slice(0, 60)}…` : entry}"`;

export const KeyRuleMessages = {
  origin: (entry: string) =>
    `${quote(entry)} is not an origin: write a scheme and host with no path, like https://app.example.com or https://*.example.com.`,
  ip: (entry: string) =>
    `${quote(entry)} is not an IP address or CIDR range, like 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32.`,
  method: (entry: string) =>
    `${quote(entry)} is not a JSON-RPC method name, like eth_call, or a namespace, like eth_*.`,
  contract: (entry: string) => `${quote(entry)} is not a contract address: 0x and 40 hexadecimal digits.`,
  tooMany: (label: string) => `At most ${KEY_RULE_ENTRIES_MAX} ${label}.`,
  limitAboveCeiling: (label: string, ceiling: number) => `${label} can be at most ${ceiling} on this service.`,
  jwtWithoutKeys: 'Upload a public key before requiring JWT-signed requests.',
  pemInvalid: (n: number) =>
    `Public key ${n} is not a PEM public key: upload an RSA (2048 to 4096 bits) or EC P-256 public key.`,
  pemPrivate: (n: number) =>
    `Public key ${n} is a private key: upload only its public key, and keep the private key secret.`,
  pemRsaSize: (n: number, bits: number) =>
    `Public key ${n} is an RSA key of ${bits} bits: use 2048 to 4096 bits, with the public exponent 65537.`,
  expiryInPast: 'The expiry date must be in the future.',
  unknownPublicKey: (n: number) => `Public key ${n} names no public key of this API key.`,
} as const;

/** What each list is called in a message. */
export const KEY_RULE_LABELS = {
  allowedOrigins: 'allowed origins',
  allowedIps: 'allowed IP addresses',
  allowedMethods: 'allowed methods',
  allowedContracts: 'allowed contract addresses',
} as const;
export type KeyRuleList = keyof typeof KEY_RULE_LABELS;

export type Parsed = { ok: true; value: string } | { ok: false; message: string };
const refused = (message: string): Parsed => ({ ok: false, message });
const accepted = (value: string): Parsed => ({ ok: true, value });

// ---- origins -------------------------------------------------------------------------------

export interface OriginParts {
  scheme: 'http' | 'https';
  /** Lower case; an IPv6 address keeps its brackets. */
  host: string;
  /** Empty for the scheme's default port. */
  port: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const isHostName = (host: string) => host.length <= 253 && host.split('.').every((label) => LABEL.test(label));

/**
 * `scheme://host[:port]` with nothing after it (a single trailing slash is forgiven), as a browser
 * writes an Origin header; undefined for anything else. The host may start with `*.` when
 * `wildcard` is set.
 */
export function originParts(text: string, wildcard = false): OriginParts | undefined {
  const match = /^(https?):\/\/(\[[0-9a-f:.]+\]|[^/:?#[\]@\s]+)(?::(\d{1,5}))?\/?$/i.exec(text.trim());
  if (!match) return undefined;
  const scheme = (match[1] as string).toLowerCase() as OriginParts['scheme'];
  const host = (match[2] as string).toLowerCase();
  let port = match[3] ?? '';
  if (port !== '' && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  if ((scheme === 'https' && port === '443') || (scheme === 'http' && port === '80')) port = '';
  if (host.startsWith('[')) return ipv6Words(host.slice(1, -1)) ? { scheme, host, port } : undefined;
  const name = wildcard && host.startsWith('*.') ? host.slice(2) : host;
  // A wildcard stands for the subdomains of a registered name: *.example.com, never *.com.
  if (!isHostName(name) || (name !== host && !name.includes('.'))) return undefined;
  return { scheme, host, port };
}

export const originText = (o: OriginParts) => `${o.scheme}://${o.host}${o.port ? `:${o.port}` : ''}`;

/** An allowed origin, as stored: lower case, without the default port or a trailing slash. */
export function parseOriginRule(entry: string): Parsed {
  const parts = originParts(entry, true);
  return parts ? accepted(originText(parts)) : refused(KeyRuleMessages.origin(entry));
}

// ---- client addresses ----------------------------------------------------------------------

/** The four bytes of a dotted IPv4 address (no leading zeros: 010 reads as octal elsewhere). */
export function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((p) => (/^(0|[1-9]\d{0,2})$/.test(p) ? Number(p) : Number.NaN));
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

/** The eight 16-bit words of an IPv6 address (with `::` and a dotted IPv4 tail); no zone id. */
export function ipv6Words(text: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const words = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const groups = part.split(':');
    for (const [i, group] of groups.entries()) {
      if (i === groups.length - 1 && group.includes('.')) {
        const v4 = ipv4Bytes(group);
        if (!v4) return undefined;
        out.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else if (/^[0-9a-f]{1,4}$/i.test(group)) out.push(Number.parseInt(group, 16));
      else return undefined;
    }
    return out;
  };
  const head = words(halves[0] as string);
  const tail = halves.length === 2 ? words(halves[1] as string) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array(missing).fill(0), ...tail] : undefined;
}

/** An allowed address or range, as stored: lower case, `/32` or `/128` left off a single address. */
export function parseIpRule(entry: string): Parsed {
  const text = entry.trim().toLowerCase();
  const [address = '', prefix, extra] = text.split('/');
  if (extra !== undefined) return refused(KeyRuleMessages.ip(entry));
  const family = ipv4Bytes(address) ? 4 : ipv6Words(address) ? 6 : 0;
  if (family === 0) return refused(KeyRuleMessages.ip(entry));
  if (prefix === undefined) return accepted(address);
  const bits = family === 4 ? 32 : 128;
  if (!/^(0|[1-9]\d{0,2})$/.test(prefix) || Number(prefix) > bits) return refused(KeyRuleMessages.ip(entry));
  return accepted(Number(prefix) === bits ? address : `${address}/${prefix}`);
}

// ---- methods and contracts -----------------------------------------------------------------

/** A method name (eth_call) or a namespace (eth_*). */
export function parseMethodRule(entry: string): Parsed {
  const text = entry.trim();
  return /^[A-Za-z][A-Za-z0-9]*_(?:\*|[A-Za-z0-9_]+)$/.test(text) && text.length <= 100
    ? accepted(text)
    : refused(KeyRuleMessages.method(entry));
}

/** A contract address, as stored: lower case (any case is accepted, checksummed or not). */
export function parseContractRule(entry: string): Parsed {
  const text = entry.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(text) ? accepted(text.toLowerCase()) : refused(KeyRuleMessages.contract(entry));
}

const PARSERS: Record<KeyRuleList, (entry: string) => Parsed> = {
  allowedOrigins: parseOriginRule,
  allowedIps: parseIpRule,
  allowedMethods: parseMethodRule,
  allowedContracts: parseContractRule,
};

/**
 * A list as stored: at most 100 entries, each checked and written one way, duplicates dropped,
 * order kept. The list's size, or the first wrong entry's message, when it cannot be stored.
 */
export function parseKeyRuleList(
  list: KeyRuleList,
  entries: readonly string[],
): { ok: true; values: string[] } | { ok: false; message: string } {
  if (entries.length > KEY_RULE_ENTRIES_MAX)
    return { ok: false, message: KeyRuleMessages.tooMany(KEY_RULE_LABELS[list]) };
  const values = new Set<string>();
  for (const entry of entries) {
    const parsed = PARSERS[list](entry);
    if (!parsed.ok) return parsed;
    values.add(parsed.value);
  }
  return { ok: true, values: [...values] };
}
