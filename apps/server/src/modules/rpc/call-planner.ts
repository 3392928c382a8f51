import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import { keyOf, plainId } from './call-encoding.ts';
import type { ChainHead } from './chain-head.ts';
import type { FilterIds } from './filter-ids.ts';
import { freshnessOf } from './freshness.ts';
import {
  type BlockRange,
  blocksOf,
  filterLogsRange,
  filterRange,
  type LogFilter,
  logsRange,
  rangeRefusal,
  readLogFilter,
} from './logs-guard.ts';
import { type PlannedCall, type RequestPlan, refuseCall, resultJson } from './request-plan.ts';
import type { ResponseCache } from './response-cache.ts';
import { idOf } from './rpc-request.ts';

/**
 * The plan stage of one network's requests: what the gateway answers itself (its cache, the logs
 * range guard, another account's filter, subscriptions elsewhere than on a WebSocket), what goes
 * upstream in place of the caller's params, and each request's route to the nodes.
 */
export class CallPlanner {
  constructor(
    private readonly network: string,
    private readonly cache: ResponseCache | null,
    private readonly head: ChainHead,
    private readonly filterIds: FilterIds,
    private readonly logsMaxRange: number,
  ) {}

  /**
   * The plan stage: what the gateway answers itself (the cache, the logs guard, another account's
   * filter, subscriptions elsewhere than on a WebSocket), what it sends in place of the caller's
   * params, and the request's route to the nodes. Answers a promise only when a range must be
   * checked against the head.
   */
  plan(plan: RequestPlan, local: boolean): Promise<void> | undefined {
    if (plan.passing === 0) return undefined;
    // Calls the screen answered must be composed with the nodes' answers.
    let read = plan.passing < plan.calls.length;
    let ranged: PlannedCall[] | undefined;
    for (const item of plan.calls) {
      if (item.answer !== undefined) continue;
      const { rule, call } = item;
      if (rule.gatewayAnswers) {
        read = true;
        if (local) item.local = true;
        else refuseCall(item, RpcErrorCodes.methodNotAvailable, RpcMessages.webSocketOnly(call.method));
        continue;
      }
      if (rule.filterId !== null || rule.idempotentSend || rule.rangeGuard) read = true;
      if (rule.filterId === 'names') {
        const params = Array.isArray(call.params) ? call.params : [];
        const owned = this.filterIds.read(plan.accountId, this.network, params[0]);
        if (owned === null) {
          refuseCall(item, RpcErrorCodes.filterNotFound, RpcMessages.filterNotFound);
          continue;
        }
        item.params = [owned.nodeId, ...params.slice(1)];
        item.filterRange = owned.range;
        item.filterNode = owned.node;
      } else if (rule.rangeGuard && !this.readFilter(item)) continue;
      if (rule.rangeGuard) {
        ranged ??= [];
        ranged.push(item);
      }
      if (this.cache) {
        item.freshness = freshnessOf(rule.cache, item.params ?? call.params);
        if (item.freshness.kind === 'never') continue;
        read = true;
        item.cacheKey = keyOf(call.method, item.params ?? call.params);
        const hit = this.cache.get(item.cacheKey);
        if (hit !== undefined) {
          item.answer = resultJson(idOf(call), hit);
          item.errorCode = null;
          item.cached = true;
        }
      }
    }
    const [single] = plan.calls;
    if (read) plan.route = 'composed';
    else {
      // A call whose id cannot go upstream as it is (none, null, a long string) is not merged: the
      // first caller's answer is passed on as the node sends it, with that id.
      const merges = !plan.parsed.batch && single !== undefined && single.rule.merges && plainId(single.call.id);
      plan.route = merges ? 'merged' : 'as-sent';
    }
    return ranged && this.guardRanges(ranged);
  }

  /**
   * eth_getLogs and eth_newFilter: the filter read as a node written in Go reads it (any spelling of
   * its keys) and sent on as read; refused when it names a block hash and a range. Answers whether
   * the call goes on.
   */
  private readFilter(item: PlannedCall): boolean {
    const params = Array.isArray(item.call.params) ? item.call.params : [];
    const read = readLogFilter(params[0]);
    if ('refusal' in read) {
      refuseCall(item, RpcErrorCodes.invalidParams, read.refusal);
      return false;
    }
    item.params = [read.filter, ...params.slice(1)];
    return true;
  }

  /**
   * Ranges past RPC_GET_LOGS_MAX_RANGE refused (a tag or a missing end read as the head): an
   * eth_getLogs or eth_newFilter filter's, and for eth_getFilterLogs the blocks its filter covers
   * up to the head now. A new filter's blocks are read here, to go in its id. Each range's blocks
   * price its call (a cache hit's too).
   */
  private async guardRanges(items: PlannedCall[]): Promise<void> {
    const head = () => this.head.head();
    const maxRange = this.logsMaxRange;
    for (const item of items) {
      // Refused already (units 0), or answered from the cache (still priced by its blocks).
      if (item.units === 0 && item.answer !== undefined) continue;
      let range: BlockRange | null = null;
      if (item.rule.filterId === 'names') {
        if (item.filterRange) range = await filterLogsRange(item.filterRange, head);
      } else range = await logsRange((item.params as [LogFilter])[0], head);
      // Its blocks price it (eth_getLogs, eth_getFilterLogs).
      item.blocks = blocksOf(range);
      if (item.answer !== undefined) continue;
      const refused = rangeRefusal(range, maxRange);
      if (refused) refuseCall(item, RpcErrorCodes.limitExceeded, refused);
      else if (item.rule.filterId === 'creates') {
        item.filterRange = await filterRange((item.params as [LogFilter])[0], head);
      }
    }
  }
}
