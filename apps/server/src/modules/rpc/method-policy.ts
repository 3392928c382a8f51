/**
 * Methods no customer key may call: the node's administration and test namespaces (they change
 * the chain for every customer: balances, code, snapshots, mining, or the node itself: its head,
 * its database, files it writes) and the node-signing methods (a shared node must hold no
 * customer's keys; Anvil's eth_sendUnsignedTransaction sends from any address with no signature at
 * all). eth_accounts is answered `[]` by the gateway, as a node without accounts would. Patterns
 * end with `*` for a whole namespace.
 */
export const DEFAULT_BLOCKED_METHODS = [
  'admin_*',
  'debug_*',
  'personal_*',
  'parity_*',
  'signer_*',
  'miner_*',
  'clique_*',
  'engine_*',
  'anvil_*',
  'evm_*',
  'hardhat_*',
  'ganache_*',
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData*',
  'eth_sendTransaction',
  'eth_sendTransactionSync',
  'eth_sendUnsignedTransaction',
  'eth_accounts',
] as const;

/**
 * The read-only part of `debug_*` (tracing, raw encodings, state ranges), left open by the defaults.
 * The rest of the namespace changes the node (setHead, resetHead, the profiling and GC knobs,
 * database compaction) or writes files on it (standardTrace…ToFile, write…Profile), and new ones
 * appear with each node release, so the namespace is refused as a whole and its readers named.
 */
export const DEFAULT_OPEN_DEBUG_METHODS = [
  'debug_trace*',
  'debug_getRaw*',
  'debug_storageRangeAt',
  'debug_accountRange',
  'debug_getBadBlocks',
  'debug_getModifiedAccountsBy*',
] as const;

export type MethodVerdict = 'forward' | 'refuse' | 'no-accounts';

const matcher = (patterns: readonly string[]) => {
  const exact = new Set(patterns.filter((p) => !p.endsWith('*')));
  const prefixes = patterns.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  return (method: string) => exact.has(method) || prefixes.some((prefix) => method.startsWith(prefix));
};

/**
 * The gateway's method policy for customer traffic. A method is refused when it matches a blocked
 * pattern (the defaults, less their open debug_ readers, and RPC_BLOCKED_METHODS) and no allowed
 * pattern (RPC_ALLOWED_METHODS): the allow list re-opens chosen methods, and with
 * RPC_BLOCKED_METHODS=* it is the only list served. The open readers are an exception to the
 * defaults only, so an operator's RPC_BLOCKED_METHODS=debug_* closes them too.
 * The server's own calls (forwarding engine, local node set-up) never pass through it.
 */
export class MethodPolicy {
  private readonly verdicts = new Map<string, MethodVerdict>();
  private readonly blocked: (method: string) => boolean;
  private readonly allowed: (method: string) => boolean;

  constructor(extraBlocked: readonly string[] = [], allowed: readonly string[] = []) {
    const blockedByDefault = matcher(DEFAULT_BLOCKED_METHODS);
    const openByDefault = matcher(DEFAULT_OPEN_DEBUG_METHODS);
    const blockedByOperator = matcher(extraBlocked);
    this.blocked = (method) => (blockedByDefault(method) && !openByDefault(method)) || blockedByOperator(method);
    this.allowed = matcher(allowed);
  }

  verdict(method: string): MethodVerdict {
    let verdict = this.verdicts.get(method);
    if (verdict) return verdict;
    if (!this.blocked(method) || this.allowed(method)) verdict = 'forward';
    else verdict = method === 'eth_accounts' ? 'no-accounts' : 'refuse';
    // Remembered per name to spare the patterns on the hot path, up to a bound, so that a caller
    // sending random names cannot grow the map.
    if (this.verdicts.size < 1000) this.verdicts.set(method, verdict);
    return verdict;
  }
}
