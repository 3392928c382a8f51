import { BlockList } from 'node:net';
import { type CONTRACT_RULE_METHODS, originParts, originText, RpcMessages } from '@ebs/contract';

/** A JSON-RPC call as the gateway read it. */
export interface KeyCall {
  method: string;
  params?: unknown;
}

/** Verdicts remembered per origin, address or method name, up to this many: a key sees few of each. */
const REMEMBERED = 1000;

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= REMEMBERED) map.clear();
  map.set(key, value);
  return value;
}

/** Where each contract method names its contract, in its first parameter. */
const CONTRACT_FIELD: Record<(typeof CONTRACT_RULE_METHODS)[number], 'to' | 'address' | null> = {
  eth_call: 'to',
  eth_estimateGas: 'to',
  eth_createAccessList: 'to',
  eth_getLogs: 'address',
  eth_newFilter: 'address',
  eth_getCode: null,
  eth_getStorageAt: null,
  eth_getProof: null,
};

/**
 * Calls that take a transaction object: past the block, a node takes state and block overrides,
 * which can put any code at an allowed address (code that reads any other contract).
 */
const CALL_PARAMS_MAX: Partial<Record<string, number>> = { eth_call: 2, eth_estimateGas: 2, eth_createAccessList: 2 };

/**
 * Methods that run or read any contract in ways the contract list cannot check (simulations,
 * traced calls, call bundles, storage ranges): refused outright for a key with contracts, by
 * prefix, so that their variants (debug_traceCallMany, eth_callMany, eth_callBundle) are too.
 */
const UNCHECKABLE_CONTRACT_PREFIXES = [
  'debug_traceCall',
  'debug_storageRangeAt',
  'eth_simulate',
  'eth_callMany',
  'eth_callBundle',
  'trace_call',
  'trace_rawTransaction',
  'trace_replay',
];

/**
 * A JSON key as a node written in Go matches it: without regard to case, and with the Unicode
 * letters that fold to ASCII ones (ſ to s, the Kelvin sign to k), so `{"TO": …}` or `{"addreſs": …}`
 * reaches the node as `to` or `address` and must be checked as one.
 */
const folded = (key: string) =>
  key
    .toLowerCase()
    .replace(/ſ/g, 's')
    .replace(/\u212a/g, 'k');

/** Every value a parameter object gives the field under any spelling the node accepts. */
function fieldValues(object: unknown, field: string): unknown[] | undefined {
  if (!object || typeof object !== 'object' || Array.isArray(object)) return undefined;
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(object)) if (folded(key) === field) values.push(value);
  return values;
}

const clientAddress = (ip: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip.replace(/%.*$/, '');

function blockList(rules: string[]): BlockList | null {
  if (rules.length === 0) return null;
  const list = new BlockList();
  for (const rule of rules) {
    const [address = '', prefix] = rule.split('/');
    const family = address.includes(':') ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/**
 * A key's rules, compiled for the gateway's hot path: origins as sets (a wildcard is looked up by
 * each parent domain of the request's host, so 100 entries cost what one does), client addresses
 * in a BlockList, methods and contracts as sets; origin and address verdicts are remembered. Each
 * check answers the refusal message, or null when the request or call may pass. An empty list
 * allows anything.
 */
export class KeyPolicy {
  private readonly origins: Set<string>;
  /** IPv4 and IPv6 rules apart: Node's BlockList would match an IPv4 client against an IPv6 range such as ::/0. */
  private readonly ipv4: BlockList | null;
  private readonly ipv6: BlockList | null;
  private readonly anyAddressRule: boolean;
  private readonly methods: Set<string>;
  private readonly namespaces: Set<string>;
  private readonly contracts: Set<string>;
  private readonly originVerdicts = new Map<string, string | null>();
  private readonly addressVerdicts = new Map<string, string | null>();
  private readonly methodVerdicts = new Map<string, string | null>();

  /** The policy of a key's lists; null when every list is empty, so that an open key costs nothing. */
  static of(lists: {
    allowedOrigins: string[];
    allowedIps: string[];
    allowedMethods: string[];
    allowedContracts: string[];
  }): KeyPolicy | null {
    const { allowedOrigins, allowedIps, allowedMethods, allowedContracts } = lists;
    if (allowedOrigins.length + allowedIps.length + allowedMethods.length + allowedContracts.length === 0) return null;
    return new KeyPolicy(allowedOrigins, allowedIps, allowedMethods, allowedContracts);
  }

  private constructor(origins: string[], ips: string[], methods: string[], contracts: string[]) {
    this.origins = new Set(origins);
    this.anyAddressRule = ips.length > 0;
    this.ipv4 = blockList(ips.filter((ip) => !ip.includes(':')));
    this.ipv6 = blockList(ips.filter((ip) => ip.includes(':')));
    this.methods = new Set(methods.filter((m) => !m.endsWith('*')));
    this.namespaces = new Set(methods.filter((m) => m.endsWith('*')).map((m) => m.slice(0, -1)));
    this.contracts = new Set(contracts);
  }

  /** The request's origin (its Origin header, else its Referer's origin) against the allowed ones. */
  originRefusal(origin: string | undefined, referer: string | undefined): string | null {
    if (this.origins.size === 0) return null;
    // A browser that sends Origin means it: `null` (a sandboxed frame, a redirect) is refused, never
    // replaced by the Referer.
    const given = origin ?? /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(referer ?? '')?.[0];
    if (!given) return RpcMessages.originMissing;
    const known = this.originVerdicts.get(given);
    if (known !== undefined) return known;
    return remember(this.originVerdicts, given, this.originAllowed(given) ? null : RpcMessages.originNotAllowed(given));
  }

  private originAllowed(given: string): boolean {
    const parts = originParts(given);
    if (!parts) return false;
    if (this.origins.has(originText(parts))) return true;
    // https://a.b.example.com may pass as https://*.b.example.com or https://*.example.com.
    const port = parts.port ? `:${parts.port}` : '';
    let rest = parts.host;
    for (let dot = rest.indexOf('.'); dot > 0; dot = rest.indexOf('.')) {
      rest = rest.slice(dot + 1);
      if (this.origins.has(`${parts.scheme}://*.${rest}${port}`)) return true;
    }
    return false;
  }

  /** The client address (as TRUST_PROXY defines it) against the allowed addresses and ranges. */
  addressRefusal(ip: string): string | null {
    if (!this.anyAddressRule) return null;
    const known = this.addressVerdicts.get(ip);
    if (known !== undefined) return known;
    const address = clientAddress(ip);
    const ipv6 = address.includes(':');
    let allowed = false;
    try {
      allowed = (ipv6 ? this.ipv6 : this.ipv4)?.check(address, ipv6 ? 'ipv6' : 'ipv4') ?? false;
    } catch {
      allowed = false;
    }
    return remember(this.addressVerdicts, ip, allowed ? null : RpcMessages.ipNotAllowed(address));
  }

  /** One call's method, and the contract it names, against the allowed ones. */
  callRefusal(call: KeyCall): string | null {
    const { method } = call;
    let verdict = this.methodVerdicts.get(method);
    if (verdict === undefined) verdict = remember(this.methodVerdicts, method, this.methodVerdict(method));
    if (verdict !== 'contract') return verdict;
    const field = CONTRACT_FIELD[method as keyof typeof CONTRACT_FIELD];
    const max = CALL_PARAMS_MAX[method];
    if (max !== undefined && Array.isArray(call.params) && call.params.length > max) {
      return RpcMessages.contractOverrides(method);
    }
    const first = Array.isArray(call.params) ? call.params[0] : undefined;
    return this.contractsRefusal(method, field === null ? [first] : (fieldValues(first, field) ?? []));
  }

  /**
   * A logs subscription's filter (eth_subscribe "logs", whose method the screen has let through):
   * its addresses checked against the key's contracts as eth_getLogs's are.
   */
  logsFilterRefusal(filter: unknown): string | null {
    if (this.contracts.size === 0) return null;
    return this.contractsRefusal('eth_subscribe', fieldValues(filter, 'address') ?? []);
  }

  private contractsRefusal(method: string, named: unknown[]): string | null {
    const addresses = named.flatMap((value) => (Array.isArray(value) ? value : [value]));
    if (addresses.length === 0 || addresses.some((a) => a === null || a === undefined)) {
      return RpcMessages.contractMissing(method);
    }
    for (const address of addresses) {
      if (typeof address !== 'string' || !this.contracts.has(address.toLowerCase())) {
        return RpcMessages.contractNotAllowed(typeof address === 'string' ? address : JSON.stringify(address));
      }
    }
    return null;
  }

  /** What a method's name alone decides: its refusal, null to pass, or 'contract' when its parameters must be read. */
  private methodVerdict(method: string): string | null {
    if (
      (this.methods.size > 0 || this.namespaces.size > 0) &&
      !this.methods.has(method) &&
      !this.namespaces.has(method.slice(0, method.indexOf('_') + 1))
    ) {
      return RpcMessages.methodNotAllowed(method);
    }
    if (this.contracts.size === 0) return null;
    if (UNCHECKABLE_CONTRACT_PREFIXES.some((prefix) => method.startsWith(prefix))) {
      return RpcMessages.contractUncheckable(method);
    }
    return Object.hasOwn(CONTRACT_FIELD, method) ? 'contract' : null;
  }
}
