import { rpcMethodRule, UNKNOWN_METHOD } from '@ebs/contract';
import { blockNumberOf } from './freshness.ts';
import type { PlannedCall } from './request-plan.ts';

/**
 * What a request's calls need of the node they go to (the router, upstreams.ts), from the table of
 * methods: whether they read the head (a lagging node is left out), the newest and oldest blocks
 * they name (a node below the newest is left out; archive nodes first far below the head), the node
 * that holds a filter they name, and what may be done when a node fails them:
 * - `read`: tried once more on another node, and hedged when slow;
 * - `filter`: a new filter, tried once more but never hedged (it lives on the node that answers);
 * - `send`: tried elsewhere only when no node could have received it (the connection was refused);
 * - `once`: the same for what the gateway does not know (an unknown method, the node namespaces).
 */
export interface NodeNeed {
  kind: 'read' | 'filter' | 'send' | 'once';
  readsHead: boolean;
  newest: bigint | null;
  oldest: bigint | null;
  /** A null answer means the node lacks the newest block (eth_getBlockByNumber and kin). */
  nullWhenMissing: boolean;
  /** The key of the node that holds a filter a call names (its follow-ups go there only). */
  node: string | null;
  /**
   * The calls' time tells the node's speed, and a slow one may be hedged: not logs, traces, debug
   * or simulation calls (or what the table does not know), which keep a node busy for as long as
   * the caller asks.
   */
  light: boolean;
  /** Every call is a send: with RPC_BROADCAST_SENDS it goes to every healthy node. */
  onlySends: boolean;
}

/** The gateway's own reads of the head (ChainHead): any node that is not lagging. */
export const HEAD_READ: NodeNeed = {
  kind: 'read',
  readsHead: true,
  newest: null,
  oldest: null,
  nullWhenMissing: false,
  node: null,
  light: true,
  onlySends: false,
};

const HASH = /^0x[0-9a-f]{64}$/i;

const KIND_ORDER = { read: 0, filter: 1, once: 2, send: 3 } as const;

/** Calls whose time is the caller's choice (a range, a trace, a simulation). */
const HEAVY = /^(debug_|trace_|eth_simulate|eth_callMany|eth_callBundle|eth_getLogs$|eth_getFilterLogs$)/;

/** The blocks a logs filter reads (as the gateway read it): its range's ends, or the head for a tag, a missing end or a hash. */
function logsBlocks(filter: unknown): { from: bigint | null; to: bigint | null } {
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return { from: null, to: null };
  const { fromBlock, toBlock, blockHash } = filter as Record<string, unknown>;
  if (blockHash !== undefined) return { from: null, to: null };
  return { from: blockNumberOf(fromBlock), to: blockNumberOf(toBlock) };
}

/** What the calls that go upstream need of a node (`node` from the filter a follow-up names, see call-planner.ts). */
export function nodeNeedOf(calls: readonly PlannedCall[]): NodeNeed {
  const need: NodeNeed = { ...HEAD_READ, readsHead: false };
  let sent = 0;
  let sends = 0;
  const atBlock = (block: bigint | null) => {
    if (block === null) {
      need.readsHead = true;
      return;
    }
    if (need.newest === null || block > need.newest) need.newest = block;
    if (need.oldest === null || block < need.oldest) need.oldest = block;
  };
  for (const item of calls) {
    if (item.answer !== undefined || item.local) continue;
    const { rule } = item;
    sent += 1;
    if (rule.class === 'send') sends += 1;
    const params = (item.params ?? item.call.params) as unknown;
    const list = Array.isArray(params) ? params : [];
    let kind: NodeNeed['kind'] = 'read';
    if (rule === UNKNOWN_METHOD || rule.class === 'node') kind = 'once';
    else if (rule.class === 'send') kind = 'send';
    else if (rule.filterId === 'creates') kind = 'filter';
    else if (rule.filterId === 'names') {
      kind = 'once';
      need.node = item.filterNode ?? null;
    }
    if (KIND_ORDER[kind] > KIND_ORDER[need.kind]) need.kind = kind;
    if (kind === 'once' || HEAVY.test(item.call.method)) need.light = false;
    if (rule.class === 'constant') continue;
    if (rule.cache === 'logs' || rule.filterId === 'creates') {
      const { from, to } = logsBlocks(list[0]);
      if (from !== null) atBlock(from);
      atBlock(to);
      continue;
    }
    if (rule.blockParam === null) {
      need.readsHead = true;
      continue;
    }
    const at = list[rule.blockParam];
    if (at === 'earliest') atBlock(0n);
    else if (typeof at === 'string' && HASH.test(at)) need.readsHead = true;
    else {
      const block = blockNumberOf(at);
      atBlock(block);
      if (block !== null && rule.nullWhenMissing) need.nullWhenMissing = true;
    }
  }
  // A null answer is read as a missing block only for one call: a batch's nulls may be anything's.
  if (sent > 1) need.nullWhenMissing = false;
  need.onlySends = sent > 0 && sends === sent;
  return need;
}

/** What the server's own calls (a JSON-RPC object or batch: the forwarding engine's, the head's) need of a node. */
export function payloadNeed(payload: unknown): NodeNeed {
  const calls = [payload].flat().flatMap((call) => {
    const method = (call as { method?: unknown } | null)?.method;
    if (typeof method !== 'string') return [];
    const { params } = call as { params?: unknown };
    return [{ call: { jsonrpc: '2.0', method, params }, rule: rpcMethodRule(method), freshness: { kind: 'never' } }];
  });
  return nodeNeedOf(calls as PlannedCall[]);
}
