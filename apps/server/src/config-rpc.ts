import { findRpcNetwork } from '@ebs/contract';
import { ConfigError } from './config-error.ts';

/** The RPC gateway's settings that name networks or methods, as the environment spells them. */
export interface RpcSettingsText {
  RPC_UPSTREAMS?: string;
  RPC_CACHE_DEPTHS?: string;
  RPC_MAX_LAG_BLOCKS_BY_NETWORK?: string;
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
    rpcCacheDepths: parseBlocks('RPC_CACHE_DEPTHS', text.RPC_CACHE_DEPTHS, '{"polygon/mainnet": 256}'),
    rpcMaxLagBlocks: parseBlocks(
      'RPC_MAX_LAG_BLOCKS_BY_NETWORK',
      text.RPC_MAX_LAG_BLOCKS_BY_NETWORK,
      '{"bsc/mainnet": 10}',
    ),
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

/** An upstream node and its traits (RPC_UPSTREAMS: a URL alone is a full node of weight 1). */
export interface UpstreamEntry {
  url: string;
  /** It keeps every block's state: calls far below the head go to such nodes first. */
  archive: boolean;
  /** Its share of the calls beside equal nodes (2: twice one of weight 1). */
  weight: number;
  /** The most calls it is sent at once (0: no limit). */
  maxInFlight: number;
}

const URL_PATTERN = /^(https?|wss?):\/\/[^\s]+$/;

/** One entry of a network's list: a URL, or `{ url, archive?, weight?, maxInFlight? }`; undefined when malformed. */
function upstreamEntry(item: unknown): UpstreamEntry | undefined {
  if (typeof item === 'string')
    return URL_PATTERN.test(item) ? { url: item, archive: false, weight: 1, maxInFlight: 0 } : undefined;
  if (!item || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const { url, archive = false, weight = 1, maxInFlight = 0, ...rest } = item as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof url !== 'string' || !URL_PATTERN.test(url)) return undefined;
  if (typeof archive !== 'boolean') return undefined;
  if (typeof weight !== 'number' || !(weight > 0 && weight <= 1000)) return undefined;
  if (!Number.isInteger(maxInFlight) || (maxInFlight as number) < 0 || (maxInFlight as number) > 1_000_000)
    return undefined;
  return { url, archive, weight, maxInFlight: maxInFlight as number };
}

/**
 * RPC_UPSTREAMS: a list of nodes per network (a single one is a list of one), each a URL or an object
 * with its traits, at least one of them http(s); ws(s) ones serve subscriptions.
 */
const parseUpstreams = (text: string | undefined) =>
  parseNetworkObject(
    'RPC_UPSTREAMS',
    text,
    '{"ethereum/mainnet": ["https://node.example", {"url": "https://archive.example", "archive": true, "weight": 2, "maxInFlight": 200}, "wss://node.example/ws"]}',
    'a list of http(s) URLs (or {"url", "archive", "weight", "maxInFlight"} objects), with ws(s) URLs for subscriptions',
    (items) => {
      const list = [items].flat().map(upstreamEntry);
      if (list.length === 0 || list.some((entry) => entry === undefined)) return undefined;
      const entries = list as UpstreamEntry[];
      return entries.some((entry) => /^https?:/.test(entry.url)) ? entries : undefined;
    },
  );

const splitUpstreams = (all: Record<string, UpstreamEntry[]>) => {
  const calls: Record<string, UpstreamEntry[]> = {};
  const sockets: Record<string, string[]> = {};
  for (const [network, entries] of Object.entries(all)) {
    calls[network] = entries.filter((entry) => /^https?:/.test(entry.url));
    const ws = entries.filter((entry) => /^wss?:/.test(entry.url)).map((entry) => entry.url);
    if (ws.length > 0) sockets[network] = ws;
  }
  return { rpcUpstreams: calls, rpcSocketUpstreams: sockets };
};

/** RPC_CACHE_DEPTHS, RPC_MAX_LAG_BLOCKS_BY_NETWORK: a whole number of blocks per network. */
const parseBlocks = (name: string, text: string | undefined, example: string) =>
  parseNetworkObject(name, text, example, 'a whole number of blocks from 0 to 100000', (depth) =>
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
