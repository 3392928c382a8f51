import { findRpcNetwork } from '@ebs/contract';
import { ConfigError } from './config-error.ts';

/** The RPC gateway's settings that name networks or methods, as the environment spells them. */
export interface RpcSettingsText {
  RPC_UPSTREAMS?: string;
  RPC_CACHE_DEPTHS?: string;
  RPC_BLOCKED_METHODS?: string;
  RPC_ALLOWED_METHODS?: string;
}

/**
 * The gateway's settings read from their text (config.ts checks the rest): the upstreams per
 * network, split into http(s) nodes (calls) and ws(s) nodes (subscriptions), the cache depths per
 * network, and the method lists. A malformed one throws one clear line.
 */
export function readRpcSettings(text: RpcSettingsText) {
  return {
    ...splitUpstreams(parseUpstreams(text.RPC_UPSTREAMS)),
    rpcCacheDepths: parseCacheDepths(text.RPC_CACHE_DEPTHS),
    rpcBlockedMethods: parseMethods('RPC_BLOCKED_METHODS', text.RPC_BLOCKED_METHODS),
    rpcAllowedMethods: parseMethods('RPC_ALLOWED_METHODS', text.RPC_ALLOWED_METHODS),
  };
}

/**
 * A setting holding a JSON object from network path to a value (RPC_UPSTREAMS, RPC_CACHE_DEPTHS):
 * every key a known network, every value what `read` makes of it (or undefined: refused with `expected`).
 */
function parseNetworkObject<T>(
  name: string,
  text: string | undefined,
  example: string,
  expected: string,
  read: (value: unknown) => T | undefined,
): Record<string, T> {
  if (!text) return {};
  const fail = (why: string) => new ConfigError(`Invalid configuration: ${name} ${why}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail(`must be JSON, e.g. ${example}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw fail('must be a JSON object');
  const parsed: Record<string, T> = {};
  for (const [network, item] of Object.entries(value)) {
    if (!findRpcNetwork(network)) throw fail(`names an unknown network "${network}"`);
    const accepted = read(item);
    if (accepted === undefined) throw fail(`"${network}" must be ${expected}`);
    parsed[network] = accepted;
  }
  return parsed;
}

/**
 * RPC_UPSTREAMS: a list of URLs per network (a single string is a list of one), at least one of
 * them http(s); ws(s) ones serve subscriptions.
 */
const parseUpstreams = (text: string | undefined) =>
  parseNetworkObject(
    'RPC_UPSTREAMS',
    text,
    '{"ethereum/mainnet": ["https://node.example", "wss://node.example/ws"]}',
    'a list of http(s) URLs, with ws(s) URLs for subscriptions',
    (urls) => {
      const list = [urls].flat();
      return list.every((u) => typeof u === 'string' && /^(https?|wss?):\/\/[^\s]+$/.test(u)) &&
        list.some((u) => /^https?:/.test(u as string))
        ? (list as string[])
        : undefined;
    },
  );

const splitUpstreams = (all: Record<string, string[]>) => {
  const pick = (scheme: RegExp) =>
    Object.fromEntries(
      Object.entries(all)
        .map(([network, urls]) => [network, urls.filter((u) => scheme.test(u))] as const)
        .filter(([, urls]) => urls.length > 0),
    );
  return { rpcUpstreams: pick(/^https?:/), rpcSocketUpstreams: pick(/^wss?:/) };
};

/** RPC_CACHE_DEPTHS: a whole number of blocks per network. */
const parseCacheDepths = (text: string | undefined) =>
  parseNetworkObject(
    'RPC_CACHE_DEPTHS',
    text,
    '{"polygon/mainnet": 256}',
    'a whole number of blocks from 0 to 100000',
    (depth) =>
      Number.isInteger(depth) && (depth as number) >= 0 && (depth as number) <= 100_000 ? (depth as number) : undefined,
  );

/** One item of a method list: a method name, a namespace with a trailing `*`, or `*` alone. */
const METHOD_PATTERN = /^(\*|[A-Za-z][A-Za-z0-9_]*\*?)$/;

/** RPC_BLOCKED_METHODS / RPC_ALLOWED_METHODS: method names or namespaces (`anvil_*`), comma-separated. */
function parseMethods(name: string, text: string | undefined): string[] {
  const items = (text ?? '').split(',').map((item) => item.trim());
  if (items.length === 1 && items[0] === '') return [];
  const wrong = items.find((item) => !METHOD_PATTERN.test(item));
  if (wrong !== undefined) {
    throw new ConfigError(
      `Invalid configuration: ${name} must be method names separated by commas, a trailing * for a namespace, e.g. debug_*,eth_getProof (got "${wrong.slice(0, 60)}")`,
    );
  }
  return items;
}
