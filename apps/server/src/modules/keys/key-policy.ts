import { BlockList } from 'node:net';
import {
  goJsonKey,
  MULTICALL3_ADDRESS,
  originParts,
  originText,
  type RpcContractTarget,
  RpcMessages,
  rpcMethodRule,
} from '@ebs/contract';
import { type Hex, parseTransaction } from 'viem';
import { multicall3Targets } from './multicall3-calls.ts';

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

/** Where a call names the contract it touches, for the methods whose parameters a key locked to contracts reads. */
type ContractParam = Exclude<RpcContractTarget, 'none' | 'uncheckable'>;

/** A method name's verdict: its refusal, null to pass, or where its parameters name its contract. */
type MethodVerdict = string | null | ContractParam;

const MULTICALL3 = MULTICALL3_ADDRESS.toLowerCase();
const isMulticall3 = (value: unknown) => typeof value === 'string' && value.toLowerCase() === MULTICALL3;

/** Every value a parameter object gives the field under any spelling the node accepts. */
function fieldValues(object: unknown, field: string): unknown[] | undefined {
  if (!object || typeof object !== 'object' || Array.isArray(object)) return undefined;
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(object)) if (goJsonKey(key) === field) values.push(value);
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
  private readonly methodVerdicts = new Map<string, MethodVerdict>();

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

  /** One call's method, and the contracts it touches, against the allowed ones. */
  callRefusal(call: KeyCall): string | null {
    const { method } = call;
    let verdict = this.methodVerdicts.get(method);
    if (verdict === undefined) verdict = remember(this.methodVerdicts, method, this.methodVerdict(method));
    if (verdict === null || typeof verdict === 'string') return verdict;
    const params = Array.isArray(call.params) ? call.params : [];
    const named = params[verdict.param];
    switch (verdict.in) {
      case 'address':
        return this.contractsRefusal(method, [named]);
      case 'filter':
        return this.contractsRefusal(method, fieldValues(named, 'address') ?? []);
      case 'call':
        if (params.length > verdict.maxParams) return RpcMessages.contractOverrides(method);
        // EIP-7702: an authorization puts any code at the sender's address, which an allowed contract may call.
        if ((fieldValues(named, 'authorizationlist') ?? []).some((list) => list !== null)) {
          return RpcMessages.contractDelegation(method);
        }
        // A Go node takes calldata as `data` or `input`, in any case: every value given is checked.
        return this.transactionRefusal(method, fieldValues(named, 'to') ?? [], () => [
          ...(fieldValues(named, 'data') ?? []),
          ...(fieldValues(named, 'input') ?? []),
        ]);
      case 'raw-transaction':
        return this.rawTransactionRefusal(method, named);
    }
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

  /**
   * A transaction's `to` against the list and, when it is Multicall3, the target of each call in
   * its calldata (decoded only then, so that other calls cost no more than a lookup).
   */
  private transactionRefusal(method: string, to: unknown[], calldata: () => unknown[]): string | null {
    const refusal = this.contractsRefusal(method, to);
    if (
      refusal !== null ||
      !to.some((value) => (Array.isArray(value) ? value.some(isMulticall3) : isMulticall3(value)))
    ) {
      return refusal;
    }
    const given = calldata();
    if (given.length === 0) return RpcMessages.contractCallsUnchecked(method);
    for (const data of given) {
      const targets = multicall3Targets(data);
      if (targets === null) return RpcMessages.contractCallsUnchecked(method);
      for (const target of targets) if (!this.contracts.has(target)) return RpcMessages.contractNotAllowed(target);
    }
    return null;
  }

  /** A signed transaction's `to` (and Multicall3 calls in it), as a call's; a contract creation has none. */
  private rawTransactionRefusal(method: string, raw: unknown): string | null {
    if (typeof raw !== 'string') return RpcMessages.contractTransactionUnreadable(method);
    let transaction: ReturnType<typeof parseTransaction>;
    try {
      transaction = parseTransaction(raw as Hex);
    } catch {
      return RpcMessages.contractTransactionUnreadable(method);
    }
    if (transaction.type === 'eip7702' || (transaction.authorizationList?.length ?? 0) > 0) {
      return RpcMessages.contractDelegation(method);
    }
    return this.transactionRefusal(method, [transaction.to ?? null], () => [transaction.data ?? '0x']);
  }

  /** What a method's name alone decides, from the gateway's table of methods (an unknown method is uncheckable). */
  private methodVerdict(method: string): MethodVerdict {
    if (
      (this.methods.size > 0 || this.namespaces.size > 0) &&
      !this.methods.has(method) &&
      !this.namespaces.has(method.slice(0, method.indexOf('_') + 1))
    ) {
      return RpcMessages.methodNotAllowed(method);
    }
    if (this.contracts.size === 0) return null;
    const { contract } = rpcMethodRule(method);
    if (contract === 'none') return null;
    if (contract === 'uncheckable') return RpcMessages.contractUncheckable(method);
    return contract;
  }
}
