import type { PriceClass } from './pricing.ts';

/**
 * The gateway's table of methods: everything it knows of a JSON-RPC method, in one place
 * (docs/api.md "Methods" publishes it). Every network of the gateway is an EVM chain, so one table
 * serves them all. A name ending in `*` covers a namespace; a method is looked up by its exact name,
 * else by its longest matching namespace, else it is `UNKNOWN_METHOD`.
 */

/** What a method reads or does. */
export type RpcMethodClass =
  /** The network's constants (chain id). */
  | 'constant'
  /** Follows the head: the latest block, gas prices, the node's state. */
  | 'head'
  /** State or data at a block its parameters name (a number, a tag or a hash). */
  | 'at-block'
  /** A block, transaction or receipt looked up by hash. */
  | 'by-hash'
  /** Sends a signed transaction. */
  | 'send'
  /** Node-side filters: made, read and removed by id. */
  | 'filter'
  /** WebSocket subscriptions, answered by the gateway. */
  | 'subscription'
  /** Administration, testing and signing on the node: refused to customer keys. */
  | 'node';

/**
 * When an answer may be kept (docs/api.md "Caching and limits"): never; always (constants); once the
 * block its parameter at `blockParam` names is deep enough (`orHash`: a block hash there instead
 * names the block in the answer); once the block named in the answer is (`in-answer`); or, for a
 * logs filter, once its `toBlock` (or its `blockHash`'s block) is.
 */
export type RpcCacheRule = 'never' | 'constant' | 'in-answer' | 'logs' | { blockParam: number; orHash?: boolean };

/**
 * Where a key locked to contracts finds the contract a call touches (docs/api.md "Locking a key
 * down"): the parameter itself is an address; a transaction object's `to` (and a Multicall3 call's
 * inner targets), refused with more than `maxParams` parameters (state and block overrides can put
 * any code at an allowed address); a logs filter's `address`; a signed transaction's `to`. `none`:
 * the call runs no contract's code; `uncheckable`: it can run or read any contract, so it is
 * refused for such a key.
 */
export type RpcContractTarget =
  | { in: 'address'; param: number }
  | { in: 'call'; param: number; maxParams: number }
  | { in: 'filter'; param: number }
  | { in: 'raw-transaction'; param: number }
  | 'none'
  | 'uncheckable';

/** What the gateway does with a node filter's id: hands out one it made, or reads one a call names. */
export type RpcFilterId = 'creates' | 'names' | null;

export interface RpcMethodRule {
  class: RpcMethodClass;
  /** Identical calls in flight at once share one upstream call. */
  merges: boolean;
  cache: RpcCacheRule;
  /** The eth_getLogs block-range guard reads its filter (its first parameter). */
  rangeGuard: boolean;
  contract: RpcContractTarget;
  filterId: RpcFilterId;
  /**
   * Refused to customer keys unless the operator re-opens it (RPC_ALLOWED_METHODS); `empty-list`:
   * answered `[]` by the gateway, as a node without accounts would.
   */
  refused: boolean | 'empty-list';
  /** Answered by the gateway itself, never sent on as a call (eth_subscribe over WebSocket). */
  gatewayAnswers: boolean;
  /** A retry of a transaction the node already holds answers its hash, as the first send did. */
  idempotentSend: boolean;
  /**
   * What one call costs: its price class's compute units (pricing.ts). A call with state or block
   * overrides (parameters past a `call` contract target's `maxParams`) costs the `override` class.
   */
  price: PriceClass;
  /**
   * The parameter that names the block the call reads (a number, a tag or a hash), or null: the
   * gateway's router sends a call at block N only to nodes that have N (docs/operations.md "Upstream nodes").
   */
  blockParam: number | null;
  /** A null answer at a block the network has means the node lacks that block (tried on another node). */
  nullWhenMissing: boolean;
}

const base: RpcMethodRule = {
  class: 'head',
  merges: false,
  cache: 'never',
  rangeGuard: false,
  contract: 'none',
  filterId: null,
  refused: false,
  gatewayAnswers: false,
  idempotentSend: false,
  price: 'read',
  blockParam: null,
  nullWhenMissing: false,
};
const rule = (fields: Partial<RpcMethodRule>): RpcMethodRule => ({ ...base, ...fields });
const head = rule({ merges: true });
const constant = rule({ class: 'constant', merges: true, cache: 'constant', price: 'free' });
const atBlock = (blockParam: number, fields: Partial<RpcMethodRule> = {}) =>
  rule({ class: 'at-block', merges: true, cache: { blockParam }, blockParam, ...fields });
const byHash = (fields: Partial<RpcMethodRule> = {}) => rule({ class: 'by-hash', merges: true, ...fields });
const filter = (filterId: RpcFilterId, fields: Partial<RpcMethodRule> = {}) =>
  rule({ class: 'filter', filterId, ...fields });
const node = rule({ class: 'node', refused: true, contract: 'uncheckable' });
const call = (maxParams: number, fields: Partial<RpcMethodRule> = {}) =>
  atBlock(1, { cache: 'never', contract: { in: 'call', param: 0, maxParams }, ...fields });
const uncheckable = (fields: Partial<RpcMethodRule>) =>
  rule({ merges: true, contract: 'uncheckable', price: 'trace', ...fields });

/**
 * A method the table does not name: sent on as it is, never merged or kept, refused to a key locked
 * to contracts, and priced as the heaviest (a node's own extensions: txpool_content, ots_*,
 * erigon_getLogs, …) unless the operator prices it (`price cu METHOD N`).
 */
export const UNKNOWN_METHOD: RpcMethodRule = rule({ contract: 'uncheckable', price: 'trace' });

export const RPC_METHOD_TABLE: Readonly<Record<string, RpcMethodRule>> = {
  eth_chainId: constant,
  net_version: constant,

  eth_blockNumber: head,
  eth_gasPrice: head,
  eth_maxPriorityFeePerGas: head,
  eth_blobBaseFee: head,
  eth_feeHistory: head,
  eth_syncing: head,
  eth_protocolVersion: head,
  net_listening: head,
  net_peerCount: head,
  web3_clientVersion: head,
  web3_sha3: head,

  eth_getBalance: atBlock(1),
  eth_getTransactionCount: atBlock(1),
  eth_getCode: atBlock(1, { contract: { in: 'address', param: 0 } }),
  eth_getStorageAt: atBlock(2, { contract: { in: 'address', param: 0 } }),
  eth_getProof: atBlock(2, { contract: { in: 'address', param: 0 } }),
  eth_getAccountInfo: atBlock(1, { contract: { in: 'address', param: 0 } }),
  eth_call: call(2, { cache: { blockParam: 1 } }),
  eth_estimateGas: call(2),
  eth_createAccessList: call(2),
  eth_fillTransaction: call(1),
  eth_getBlockByNumber: atBlock(0, { nullWhenMissing: true }),
  eth_getBlockTransactionCountByNumber: atBlock(0, { nullWhenMissing: true }),
  eth_getTransactionByBlockNumberAndIndex: atBlock(0),
  eth_getUncleCountByBlockNumber: atBlock(0),
  eth_getUncleByBlockNumberAndIndex: atBlock(0),
  eth_getBlockReceipts: atBlock(0, { cache: { blockParam: 0, orHash: true }, nullWhenMissing: true }),

  eth_getBlockByHash: byHash({ cache: 'in-answer' }),
  eth_getTransactionByHash: byHash({ cache: 'in-answer' }),
  eth_getTransactionReceipt: byHash({ cache: 'in-answer' }),
  eth_getTransactionByBlockHashAndIndex: byHash({ cache: 'in-answer' }),
  eth_getBlockTransactionCountByHash: byHash(),
  eth_getUncleCountByBlockHash: byHash(),
  eth_getUncleByBlockHashAndIndex: byHash(),

  eth_getLogs: atBlock(0, { cache: 'logs', rangeGuard: true, contract: { in: 'filter', param: 0 }, price: 'logs' }),

  eth_newFilter: filter('creates', { rangeGuard: true, contract: { in: 'filter', param: 0 } }),
  eth_newBlockFilter: filter('creates'),
  eth_newPendingTransactionFilter: filter('creates'),
  // Priced by what it answers, as the subscription it stands for would be.
  eth_getFilterChanges: filter('names', { price: 'notification' }),
  // It scans the filter's blocks again, up to the head: the range guard reads them from its id.
  eth_getFilterLogs: filter('names', { rangeGuard: true, price: 'logs' }),
  eth_uninstallFilter: filter('names'),

  eth_sendRawTransaction: rule({
    class: 'send',
    price: 'send',
    idempotentSend: true,
    contract: { in: 'raw-transaction', param: 0 },
  }),

  eth_subscribe: rule({ class: 'subscription', gatewayAnswers: true, price: 'subscription' }),
  eth_unsubscribe: rule({ class: 'subscription', gatewayAnswers: true, price: 'subscription' }),

  // Simulations and traces: they run or read any contract.
  'eth_simulate*': uncheckable({ class: 'at-block', blockParam: 1 }),
  'eth_callMany*': uncheckable({ class: 'at-block' }),
  'eth_callBundle*': uncheckable({ class: 'at-block' }),
  'trace_*': uncheckable({ class: 'by-hash' }),
  'debug_trace*': uncheckable({ class: 'by-hash' }),
  debug_traceCall: uncheckable({ class: 'at-block', blockParam: 1 }),
  debug_traceBlockByNumber: uncheckable({ class: 'at-block', blockParam: 0 }),
  // The read-only part of debug_ (raw encodings, state ranges): the rest of the namespace changes
  // the node or writes files on it, and new ones appear with each release.
  'debug_getRaw*': uncheckable({ class: 'by-hash' }),
  debug_storageRangeAt: uncheckable({ class: 'at-block' }),
  debug_accountRange: uncheckable({ class: 'at-block' }),
  debug_getBadBlocks: uncheckable({ class: 'head' }),
  'debug_getModifiedAccountsBy*': uncheckable({ class: 'at-block' }),

  // The node's administration and test namespaces (they change the chain or the node for every
  // customer) and node signing (a shared node holds no customer's keys; Anvil's
  // eth_sendUnsignedTransaction sends from any address with no signature at all).
  'admin_*': node,
  'debug_*': node,
  'personal_*': node,
  'parity_*': node,
  'signer_*': node,
  'miner_*': node,
  'clique_*': node,
  'engine_*': node,
  'anvil_*': node,
  'evm_*': node,
  'hardhat_*': node,
  'ganache_*': node,
  eth_sign: node,
  eth_signTransaction: node,
  'eth_signTypedData*': node,
  eth_sendTransaction: node,
  eth_sendTransactionSync: node,
  eth_sendUnsignedTransaction: node,
  eth_accounts: rule({ class: 'node', refused: 'empty-list' }),
};

const exact = new Map<string, RpcMethodRule>();
/** Namespaces, longest first, so that `debug_trace*` wins over `debug_*`. */
const namespaces: Array<[string, RpcMethodRule]> = [];
for (const [name, found] of Object.entries(RPC_METHOD_TABLE)) {
  if (name.endsWith('*')) namespaces.push([name.slice(0, -1), found]);
  else exact.set(name, found);
}
namespaces.sort(([a], [b]) => b.length - a.length);

/** What the gateway knows of a method. */
export function rpcMethodRule(method: string): RpcMethodRule {
  const found = exact.get(method);
  if (found) return found;
  for (const [prefix, byPrefix] of namespaces) if (method.startsWith(prefix)) return byPrefix;
  return UNKNOWN_METHOD;
}

/** The table's names (namespaces with their `*`) that the gateway refuses unless an operator re-opens them. */
export const DEFAULT_REFUSED_METHODS: readonly string[] = Object.entries(RPC_METHOD_TABLE)
  .filter(([, found]) => found.refused !== false)
  .map(([name]) => name);

/**
 * The JSON-RPC methods every network of the gateway serves, offered by the console when a key's
 * methods are chosen; a method outside this list may still be typed.
 */
export const KNOWN_RPC_METHODS: readonly string[] = [
  ...Object.keys(RPC_METHOD_TABLE).filter((name) => !name.endsWith('*') && RPC_METHOD_TABLE[name]?.refused === false),
  'debug_traceBlockByHash',
  'debug_traceTransaction',
].sort();

/** A call's price class: its method's, or `override` for a call with state or block overrides. */
export function priceClassOf(rule: RpcMethodRule, params: unknown): PriceClass {
  const { contract } = rule;
  if (typeof contract === 'object' && contract.in === 'call' && Array.isArray(params)) {
    for (let i = contract.maxParams; i < params.length; i += 1) if (params[i] != null) return 'override';
  }
  return rule.price;
}
