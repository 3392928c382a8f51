import { rpcMethodRule } from '@ebs/contract';

export type MethodVerdict = 'forward' | 'refuse' | 'no-accounts';

const matcher = (patterns: readonly string[]) => {
  const exact = new Set(patterns.filter((p) => !p.endsWith('*')));
  const prefixes = patterns.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  return (method: string) => exact.has(method) || prefixes.some((prefix) => method.startsWith(prefix));
};

/**
 * The gateway's method policy for customer traffic. A method is refused when the table of methods
 * refuses it by default (the node's administration, test and signing namespaces) or it matches
 * RPC_BLOCKED_METHODS, and it matches no pattern of RPC_ALLOWED_METHODS: the allow list re-opens
 * chosen methods, and with RPC_BLOCKED_METHODS=* it is the only list served. The table's open debug_
 * readers are an exception to its own refusal only, so an operator's RPC_BLOCKED_METHODS=debug_*
 * closes them too. The server's own calls (forwarding engine, local node set-up) never pass through it.
 */
export class MethodPolicy {
  private readonly verdicts = new Map<string, MethodVerdict>();
  private readonly blockedByOperator: (method: string) => boolean;
  private readonly allowed: (method: string) => boolean;

  constructor(extraBlocked: readonly string[] = [], allowed: readonly string[] = []) {
    this.blockedByOperator = matcher(extraBlocked);
    this.allowed = matcher(allowed);
  }

  verdict(method: string): MethodVerdict {
    let verdict = this.verdicts.get(method);
    if (verdict) return verdict;
    const refused = rpcMethodRule(method).refused;
    const blocked = refused !== false || this.blockedByOperator(method);
    if (!blocked || this.allowed(method)) verdict = 'forward';
    else verdict = refused === 'empty-list' ? 'no-accounts' : 'refuse';
    // Remembered per name to spare the patterns on the hot path, up to a bound, so that a caller
    // sending random names cannot grow the map.
    if (this.verdicts.size < 1000) this.verdicts.set(method, verdict);
    return verdict;
  }
}
