import { RpcErrorCodes, RpcMessages, type RpcMethodRule, rpcMethodRule } from '@ebs/contract';
import type { KeyPolicy } from '../keys/index.ts';
import type { Freshness } from './freshness.ts';
import type { FilterRange } from './logs-guard.ts';
import type { MethodPolicy } from './method-policy.ts';
import { idOf, type ParsedRpcBody, type RpcCall } from './rpc-request.ts';

/** One call of a request as the pipeline's stages carry it. */
export interface PlannedCall {
  call: RpcCall;
  rule: RpcMethodRule;
  /** The gateway's own answer (JSON text), once it has one: refused, cached, guarded, or read from a node's. */
  answer?: string;
  /** Its JSON-RPC error code, null for a result (counted by the insight). */
  errorCode?: number | null;
  /** Answered by the screen: the method policy or the key's rules kept it back. */
  keptBack?: boolean;
  /** Answered by the transport itself (eth_subscribe over WebSocket). */
  local?: boolean;
  /** What goes upstream instead of the caller's params (a logs filter as read, a node's filter id). */
  params?: unknown;
  freshness: Freshness;
  /**
   * Its compute units by its class (price-book.ts), set at the screen; 0 once the gateway refused
   * or failed it (refuseCall), or kept it back.
   */
  units: number;
  /** Answered from the response cache. */
  cached?: boolean;
  /** eth_getLogs and eth_getFilterLogs: the blocks its range spans as the guard read them (null: not worked out). */
  blocks?: bigint | null;
  /** eth_getFilterChanges: the size of the node's result, which prices it. */
  bytes?: number;
  cacheKey?: string;
  /** A log filter's blocks: read now for eth_newFilter (kept in its id), from its id for eth_getFilterLogs. */
  filterRange?: FilterRange | null;
  /** The key of the node that holds the filter the call names: the call goes there only. */
  filterNode?: string;
}

/**
 * How a request's calls reach the nodes: not at all (the gateway answers every one); the body as
 * sent, its answer passed on as the node sends it; one call shared with identical ones in flight;
 * or call by call, each answer read and the whole composed in the calls' order.
 */
export type Route = 'none' | 'as-sent' | 'merged' | 'composed';

export interface RequestPlan {
  /** Whose request it is: a node filter made for it is this account's only. */
  accountId: string;
  parsed: ParsedRpcBody;
  calls: PlannedCall[];
  /** Calls past the screen: counted against the key's limits and metered. */
  passing: number;
  /** Their compute units by class, as the screen priced them (what a key's compute unit limits count). */
  computeUnits: number;
  /** Calls the key's own rules refused (HTTP 403 when nothing else passes). */
  refusedByKey: number;
  /**
   * The key has rules that read the calls' params: its calls go upstream in the gateway's encoding of
   * what was checked, never as sent (a node that reads the first of two equal keys would run another).
   */
  checkedParams: boolean;
  route: Route;
}

const NEVER: Freshness = { kind: 'never' };

export const resultJson = (id: unknown, result: string) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
export const errorJson = (id: unknown, code: number, message: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/** Gives a call the gateway's own error answer. */
export function refuseCall(item: PlannedCall, code: number, message: string): void {
  item.answer = errorJson(idOf(item.call), code, message);
  item.errorCode = code;
  item.units = 0;
}

/**
 * The screen stage: each call's row of the table of methods, and the gateway's answer to those the
 * method policy or the key's own rules (allowed methods and contracts) keep back: never sent
 * upstream, never metered, never counted against the key's limits. The others are priced by
 * `unitsOf`.
 */
export function screenCalls(
  accountId: string,
  parsed: ParsedRpcBody,
  policy: MethodPolicy,
  keyPolicy: KeyPolicy | null,
  unitsOf: (item: PlannedCall) => number,
): RequestPlan {
  const calls: PlannedCall[] = [];
  let passing = 0;
  let refusedByKey = 0;
  let computeUnits = 0;
  for (const call of parsed.requests) {
    const item: PlannedCall = { call, rule: rpcMethodRule(call.method), freshness: NEVER, units: 0 };
    calls.push(item);
    const verdict = policy.verdict(call.method);
    const byKey = verdict === 'refuse' || keyPolicy === null ? null : keyPolicy.callRefusal(call);
    if (byKey !== null || verdict !== 'forward') item.keptBack = true;
    if (byKey !== null) {
      refusedByKey += 1;
      refuseCall(item, RpcErrorCodes.forbidden, byKey);
    } else if (verdict === 'refuse') {
      refuseCall(item, RpcErrorCodes.methodNotAvailable, RpcMessages.methodNotAvailable(call.method));
    } else if (verdict === 'no-accounts') {
      item.answer = resultJson(idOf(call), '[]');
      item.errorCode = null;
    } else {
      passing += 1;
      item.units = unitsOf(item);
      computeUnits += item.units;
    }
  }
  const checkedParams = keyPolicy !== null;
  const route = passing === 0 ? 'none' : 'as-sent';
  return { accountId, parsed, calls, passing, computeUnits, refusedByKey, checkedParams, route };
}
