import type { Readable } from 'node:stream';
import { RpcErrorCodes, RpcMessages, type RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import { errorCodeOf } from '../insight/index.ts';
import { type AnswerMemory, type HeldAnswer, type NotHeld, notHeldMessage } from './answer-memory.ts';
import { encodeCall, encoded, sharedKey } from './call-encoding.ts';
import { CallPlanner } from './call-planner.ts';
import { ChainHead } from './chain-head.ts';
import type { FilterIds } from './filter-ids.ts';
import { mayKeep } from './freshness.ts';
import { logsCountRefusal } from './logs-guard.ts';
import { type NodeAnswer, UpstreamError, wholeBody } from './node-answer.ts';
import { nodeNeedOf, payloadNeed } from './node-need.ts';
import { retriedTransactionHash } from './raw-transactions.ts';
import { errorJson, type PlannedCall, type RequestPlan, refuseCall, resultJson } from './request-plan.ts';
import { ResponseCache } from './response-cache.ts';
import { hasOnlyForwardedFields, idOf, type RpcAnswer, type RpcCall, screenedFields } from './rpc-request.ts';
import { joined, type SharedAnswer, type Waiter } from './shared-answer.ts';
import type { NetworkUpstreams } from './upstreams.ts';

export interface NetworkSettings {
  /** The cache's bound in bytes; 0 turns it off. */
  cacheBytes: number;
  /** Blocks below the head before an answer at a block may be cached. */
  depth: number;
  /** How often the head is read while the network is in use. */
  headPollMs: number;
  /** eth_getLogs: the largest block range, and the most logs in an answer (0: no limit). */
  logsMaxRange: number;
  logsMaxResults: number;
  /** The largest node answer the gateway holds for one request (RPC_MAX_ANSWER_BYTES). */
  maxAnswerBytes: number;
  /** How long a request may wait for room to hold its answer (RPC_TIMEOUT_MS). */
  timeoutMs: number;
}

/** An answer held whole: composed here, or a node's read whole. */
export interface WholeAnswer {
  status: number;
  body: string | Buffer;
  contentType: string;
  /** HIT when the cache answered every call that passed the screen; none when none passed. */
  cache?: 'HIT' | 'MISS';
  /**
   * Each call's JSON-RPC error code (null for a result), in the calls' order, when the gateway wrote
   * every call's answer itself: the insight reads these instead of searching the body.
   */
  errorCodes?: Array<number | null>;
  /** Gives the answer's bytes back to the process's answer memory once it is written out. */
  release?: () => void;
}

/** A node's answer passed on as it streams (HTTP only). */
export interface StreamedAnswer {
  status: number;
  contentType: string;
  cache: 'MISS';
  stream: Readable;
  length: string | undefined;
}

export type GatewayAnswer = WholeAnswer | StreamedAnswer;

/** How the transport asks for the answer: streamed when it may be, and who answers subscriptions. */
export interface AnswerOptions {
  /** HTTP may pass a large node answer on as it streams; a WebSocket message is held whole. */
  mayStream: boolean;
  /** Answers the calls the transport serves itself (eth_subscribe over WebSocket). */
  local?: (call: RpcCall) => Promise<RpcAnswer>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * One network at the gateway: its upstream nodes, its head, its response cache, and the calls in
 * flight to it. It runs the plan, forward and compose stages of a request (pipeline.ts): a request
 * whose calls need no reading goes to the nodes as sent and its answer comes back as they send it;
 * an identical single read in flight shares one upstream call, sent in the gateway's own encoding;
 * otherwise each call is read: answered from the cache, refused by a guard, or sent on (together,
 * in one batch with the gateway's own ids), and the answers are composed in the request's order.
 */
export class NetworkGateway {
  readonly cache: ResponseCache | null;
  readonly head: ChainHead;
  private readonly planner: CallPlanner;
  private readonly inflight = new Map<string, Waiter[]>();
  /** Moves at each reorg flush: an answer read before one is not kept after it. */
  private epoch = 0;

  constructor(
    readonly network: RpcNetwork,
    readonly upstreams: NetworkUpstreams,
    private readonly settings: NetworkSettings,
    private readonly memory: AnswerMemory,
    private readonly filterIds: FilterIds,
    log: FastifyBaseLogger,
  ) {
    this.cache = settings.cacheBytes > 0 ? new ResponseCache(network.path, settings.cacheBytes) : null;
    this.head = new ChainHead((payload) => this.call(payload), {
      depth: settings.depth,
      pollMs: settings.headPollMs,
      log,
      network: network.path,
      onReorg: () => {
        this.cache?.flush();
        this.epoch += 1;
      },
    });
    this.planner = new CallPlanner(network.path, this.cache, this.head, filterIds, settings.logsMaxRange);
  }

  /** A JSON-RPC call (single or batch) from the gateway itself; answers the parsed JSON. */
  async call(payload: unknown): Promise<unknown> {
    const answer = await this.upstreams.send(JSON.stringify(payload), payloadNeed(payload));
    const text = (await wholeBody(answer)).toString('utf8');
    if (answer.status >= 400) throw new UpstreamError(`${this.network.path}: HTTP ${answer.status}`, false);
    return JSON.parse(text);
  }

  /** The plan stage (call-planner.ts). */
  plan(plan: RequestPlan, local: boolean): Promise<void> | undefined {
    return this.planner.plan(plan, local);
  }

  /** The forward and compose stages: the request's calls sent by their route, and the answer to all of them. */
  answer(plan: RequestPlan, text: string, options: AnswerOptions): Promise<GatewayAnswer> {
    if (plan.route === 'as-sent') return this.asSent(plan, text, options.mayStream);
    if (plan.route === 'merged') return this.merged(plan, options.mayStream);
    return this.composed(plan, options.local);
  }

  /** The body as sent (rebuilt from the four fields when a call carries others), and the node's answer as it comes. */
  private async asSent(plan: RequestPlan, text: string, mayStream: boolean): Promise<GatewayAnswer> {
    const calls = plan.calls.map((item) => item.call);
    let body = text;
    if (plan.checkedParams || !calls.every(hasOnlyForwardedFields)) {
      const rebuilt = calls.map(screenedFields);
      body = JSON.stringify(plan.parsed.batch ? rebuilt : rebuilt[0]);
    }
    if (!mayStream && !(await this.memory.room(this.settings.timeoutMs))) return this.unheld(plan, 'busy');
    const answer = await this.upstreams.send(body, nodeNeedOf(plan.calls));
    return mayStream ? passedOn(answer) : this.held(plan, answer);
  }

  /** A node's answer held whole, within the request's and the process's bounds (or every call refused). */
  private async held(plan: RequestPlan, answer: NodeAnswer): Promise<GatewayAnswer> {
    const held = await this.memory.hold(answer, this.settings.maxAnswerBytes, plan.accountId);
    if (typeof held === 'string') return this.unheld(plan, held);
    return { ...held, cache: 'MISS' };
  }

  /**
   * An identical single read in flight at once: the first goes upstream in the gateway's own
   * encoding of the call (so no caller's bytes decide what another receives), the others wait for its
   * answer and get it with their own id.
   */
  private async merged(plan: RequestPlan, mayStream: boolean): Promise<GatewayAnswer> {
    const item = plan.calls[0] as PlannedCall;
    const { call } = item;
    const id = idOf(call);
    const paramsJson = Object.hasOwn(call, 'params') ? JSON.stringify(call.params) : undefined;
    const key = sharedKey(call.method, paramsJson);
    const body = encoded(call.method, id, paramsJson);
    const running = this.inflight.get(key);
    if (running) {
      const shared = await new Promise<SharedAnswer | null>((resolve, reject) => running.push({ resolve, reject }));
      if (shared) return joined(shared, id);
      const answer = await this.upstreams.send(body, nodeNeedOf(plan.calls));
      return mayStream ? passedOn(answer) : this.held(plan, answer);
    }
    // The leader makes no promise for the others: most calls are never joined.
    const waiting: Waiter[] = [];
    this.inflight.set(key, waiting);
    let shared: SharedAnswer | null = null;
    let failure: { error: unknown } | undefined;
    try {
      if (!mayStream && !(await this.memory.room(this.settings.timeoutMs))) return this.unheld(plan, 'busy');
      const answer = await this.upstreams.send(body, nodeNeedOf(plan.calls));
      // Only an answer read whole is shared; the others ask the nodes themselves.
      if ('body' in answer) shared = { answer };
      return mayStream ? passedOn(answer) : await this.held(plan, answer);
    } catch (error) {
      failure = { error };
      throw error;
    } finally {
      this.inflight.delete(key);
      for (const waiter of waiting) {
        if (failure) waiter.reject(failure.error);
        else waiter.resolve(shared);
      }
    }
  }

  /**
   * Calls read one by one: the ones the plan left open are sent together with the gateway's own ids
   * (a client's may repeat or be missing), to a node they may all go to (the follow-ups of a filter
   * to its node: a batch naming filters of several nodes is sent in one part per node), their
   * answer held whole within the bounds, each read (kept when it may be, checked against the logs
   * limit, a retried transaction answered with its hash, a new filter's id made the account's), and
   * every answer composed in the request's order.
   */
  private async composed(plan: RequestPlan, local: AnswerOptions['local']): Promise<WholeAnswer> {
    const epoch = this.epoch;
    const toSend = plan.calls.filter((item) => item.answer === undefined && !item.local);
    let status = 200;
    const releases: Array<() => void> = [];
    const release = () => {
      for (const give of releases) give();
    };
    try {
      for (const part of await this.byNode(toSend)) {
        if (!(await this.memory.room(this.settings.timeoutMs))) {
          release();
          return this.unheld(plan, 'busy');
        }
        // The line is read before the calls go out: an answer is kept only if its block was deep enough then.
        const atBlocks = part.some((item) => item.freshness.kind === 'at-block' || item.freshness.kind === 'in-answer');
        const finalBlock = atBlocks ? this.head.finalBlock() : undefined;
        const outgoing = part.map((item, index) => encodeCall(item.call, index, item.params));
        const answer = await this.upstreams.send(
          part.length === 1 ? (outgoing[0] as string) : `[${outgoing.join(',')}]`,
          nodeNeedOf(part),
        );
        const held = await this.memory.hold(answer, this.settings.maxAnswerBytes, plan.accountId);
        if (typeof held === 'string') {
          release();
          return this.unheld(plan, held);
        }
        // The node's bytes stay counted until the answer composed from them has been written out.
        releases.push(held.release);
        await this.readAnswers(plan, part, held, epoch, finalBlock, answer.node);
        status = toSend.length === 1 && answer.status < 500 ? answer.status : 200;
      }
      for (const item of plan.calls) {
        if (item.local && local) {
          const answer = await local(item.call);
          item.answer = JSON.stringify(answer);
          item.errorCode = 'error' in answer ? answer.error.code : null;
        }
      }
    } catch (error) {
      release();
      throw error;
    }
    if (plan.passing === 0) return this.whole(plan, plan.refusedByKey > 0 ? 403 : 200, undefined);
    return { ...this.whole(plan, status, toSend.length === 0 ? 'HIT' : 'MISS'), release };
  }

  /**
   * The calls to send, in parts that each go to one node: the follow-ups of each filter's node
   * together, the other calls apart; a filter whose node is gone or down is answered "filter not
   * found", as the node would.
   */
  private async byNode(toSend: PlannedCall[]): Promise<PlannedCall[][]> {
    if (toSend.length === 0) return [];
    if (!toSend.some((item) => item.filterNode !== undefined)) return [toSend];
    await this.upstreams.resolve();
    const parts = new Map<string | undefined, PlannedCall[]>();
    for (const item of toSend) {
      if (item.filterNode !== undefined && !this.upstreams.holds(item.filterNode)) {
        refuseCall(item, RpcErrorCodes.filterNotFound, RpcMessages.filterNotFound);
        continue;
      }
      const part = parts.get(item.filterNode);
      if (part) part.push(item);
      else parts.set(item.filterNode, [item]);
    }
    // The other calls go apart, to whichever node suits them: a filter's node may lag.
    return [...parts.values()];
  }

  private async readAnswers(
    plan: RequestPlan,
    toSend: PlannedCall[],
    held: HeldAnswer,
    epoch: number,
    finalBlock: bigint | undefined,
    node: string | undefined,
  ): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(held.body.toString('utf8'));
    } catch {
      throw new UpstreamError(`${this.network.path}: the answer is not JSON`, false);
    }
    const byId = new Map<unknown, { result?: unknown; error?: { message?: unknown } }>();
    for (const item of [parsed].flat())
      if (item && typeof item === 'object') byId.set((item as { id?: unknown }).id, item);
    for (const [index, item] of toSend.entries()) {
      const got = byId.get(index);
      if (!got) refuseCall(item, RpcErrorCodes.upstream, RpcMessages.upstreamFailed(this.network.name));
      else item.answer = await this.read(plan, item, got, epoch, finalBlock, node);
    }
  }

  private async read(
    plan: RequestPlan,
    item: PlannedCall,
    got: { result?: unknown; error?: { message?: unknown } },
    epoch: number,
    finalBlock: bigint | undefined,
    node: string | undefined,
  ): Promise<string> {
    const { call, rule } = item;
    const id = idOf(call);
    if (got.error !== undefined) {
      if (rule.idempotentSend) {
        const raw = (call.params as unknown[] | undefined)?.[0];
        const hash = await retriedTransactionHash(raw, got.error?.message, (h) =>
          this.call({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [h] }).then(
            (a) => (a as { result?: unknown }).result,
          ),
        );
        if (hash) {
          item.errorCode = null;
          return resultJson(id, JSON.stringify(hash));
        }
      }
      item.errorCode = errorCodeOf(got.error);
      return JSON.stringify({ jsonrpc: '2.0', id, error: got.error });
    }
    item.errorCode = null;
    if (call.method === 'eth_getLogs') {
      const refused = logsCountRefusal(got.result, this.settings.logsMaxResults);
      if (refused) {
        item.errorCode = RpcErrorCodes.limitExceeded;
        return errorJson(id, RpcErrorCodes.limitExceeded, refused);
      }
    }
    if (rule.filterId === 'creates') {
      const issued = this.filterIds.issue(
        plan.accountId,
        this.network.path,
        node ?? '',
        got.result,
        item.filterRange ?? null,
      );
      return resultJson(id, JSON.stringify(issued));
    }
    const result = JSON.stringify(got.result ?? null);
    if (rule.price === 'notification') item.bytes = result.length;
    if (item.cacheKey !== undefined && epoch === this.epoch && mayKeep(item.freshness, got.result, finalBlock)) {
      this.cache?.set(item.cacheKey, result);
    }
    return resultJson(id, result);
  }

  /**
   * Every call of the request answered -32005: its answer could not be held (HTTP 200; the calls
   * are still metered, and cost their units when the node answered).
   */
  private unheld(plan: RequestPlan, why: NotHeld): WholeAnswer {
    const message = notHeldMessage(why, this.settings.maxAnswerBytes);
    for (const item of plan.calls) {
      const { units } = item;
      refuseCall(item, RpcErrorCodes.limitExceeded, message);
      // Too large: the node did the work. Busy: no node was asked.
      if (why === 'too-large') item.units = units;
    }
    return this.whole(plan, 200, 'MISS');
  }

  /** The calls' answers in order; a notification sent on gets none. */
  private whole(plan: RequestPlan, status: number, cache: WholeAnswer['cache']): WholeAnswer {
    const parts: string[] = [];
    for (const item of plan.calls) {
      if (item.keptBack || Object.hasOwn(item.call, 'id')) parts.push(item.answer as string);
    }
    return {
      status,
      body: plan.parsed.batch ? `[${parts.join(',')}]` : (parts[0] ?? ''),
      contentType: JSON_TYPE,
      cache,
      errorCodes: plan.calls.map((item) => item.errorCode ?? null),
    };
  }

  close(): void {
    this.head.stop();
  }
}

/** A node's answer as it came (read whole or streaming), for a transport that may stream it. */
function passedOn(answer: NodeAnswer): GatewayAnswer {
  if ('body' in answer)
    return { status: answer.status, contentType: answer.contentType, body: answer.body, cache: 'MISS' };
  return {
    status: answer.status,
    contentType: answer.contentType,
    cache: 'MISS',
    stream: answer.stream,
    length: answer.length,
  };
}
