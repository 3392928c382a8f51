import { RpcErrorCodes, RpcMessages, type RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import { errorCodeOf } from '../insight/answer-errors.ts';
import { ChainHead } from './chain-head.ts';
import { type Freshness, freshnessOf, mayKeep } from './freshness.ts';
import { logsCountRefusal, logsRangeRefusal } from './logs-guard.ts';
import { retriedTransactionHash } from './raw-transactions.ts';
import { ResponseCache } from './response-cache.ts';
import type { RpcAnswer, RpcCall } from './rpc-request.ts';
import { type NetworkUpstreams, type NodeAnswer, UpstreamError, wholeBody } from './upstreams.ts';

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
}

/** An answer the gateway composed or read whole: cached, merged, or its calls read one by one. */
export interface ComposedAnswer {
  status: number;
  body: string | Buffer;
  contentType: string;
  /** HIT when no call of the request reached the network's nodes. */
  cache: 'HIT' | 'MISS';
  /**
   * Each call's JSON-RPC error code (null for a result), in the calls' order, when the gateway wrote
   * every call's answer itself: the insight reads these instead of searching the body.
   */
  errorCodes?: Array<number | null>;
}

/** The answer to a request: composed here, or the nodes' own (read whole, or streamed when large). */
export type GatewayAnswer = ComposedAnswer | (NodeAnswer & { cache: 'MISS' });

/** A node's answer read whole, which the callers of a merged call share. */
type SharedAnswer = Extract<NodeAnswer, { body: Buffer }>;

/**
 * Calls that only read, and so can share one upstream answer when identical calls are in flight at
 * once. Sending, filters (an id per caller) and subscriptions never share.
 */
const MERGEABLE =
  /^(eth_(blockNumber|chainId|gasPrice|maxPriorityFeePerGas|feeHistory|blobBaseFee|syncing|getBalance|getCode|getStorageAt|getTransactionCount|call|estimateGas|getProof|createAccessList|getBlock\w*|getTransaction\w*|getUncle\w*|getLogs)|net_(version|listening|peerCount)|web3_clientVersion|debug_trace\w*|trace_\w+)$/;

/** Calls whose filter names a block range: eth_newFilter's range is read by eth_getFilterLogs later. */
const RANGED = new Set(['eth_getLogs', 'eth_newFilter']);

const keyOf = (call: RpcCall) => `${call.method}\n${JSON.stringify(call.params ?? null)}`;

const idOf = (call: RpcCall): unknown => {
  const id = call.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/** The same answer with the caller's id. */
function withId(body: Buffer, id: unknown): string | Buffer {
  try {
    const answer = JSON.parse(body.toString('utf8'));
    if (answer && typeof answer === 'object' && !Array.isArray(answer)) return JSON.stringify({ ...answer, id });
  } catch {
    // not JSON: every caller gets what the node sent
  }
  return body;
}

interface Planned {
  call: RpcCall;
  freshness: Freshness;
  key: string | undefined;
  /** The composed answer's JSON, once known. */
  answer?: string;
  /** Its JSON-RPC error code, when it is an error. */
  errorCode?: number | null;
}

const resultJson = (id: unknown, result: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
const errorJson = (id: unknown, code: number, message: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/**
 * One network at the gateway: its upstream nodes, its head, its response cache, and the calls in
 * flight to it. A request whose calls need no reading (nothing cacheable, no eth_getLogs, no
 * eth_sendRawTransaction) goes to the nodes as sent and its answer comes back as they send it;
 * identical single reads in flight at once share one upstream call. Otherwise each call is read:
 * answered from the cache, refused by the eth_getLogs guard, or sent on (together, in one batch),
 * and the answers are composed in the request's order.
 */
export class NetworkGateway {
  readonly cache: ResponseCache | null;
  readonly head: ChainHead;
  private readonly inflight = new Map<string, Promise<SharedAnswer | null>>();
  /** Moves at each reorg flush: an answer read before one is not kept after it. */
  private epoch = 0;

  constructor(
    readonly network: RpcNetwork,
    readonly upstreams: NetworkUpstreams,
    private readonly settings: NetworkSettings,
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
  }

  /** A JSON-RPC call (single or batch) from the gateway itself; answers the parsed JSON. */
  async call(payload: unknown): Promise<unknown> {
    const answer = await this.upstreams.send(JSON.stringify(payload));
    const text = (await wholeBody(answer)).toString('utf8');
    if (answer.status >= 400) throw new UpstreamError(`${this.network.path}: HTTP ${answer.status}`, false);
    return JSON.parse(text);
  }

  /**
   * The answer to the calls that passed the screen (`text` is what goes upstream as it is) and the
   * gateway's own answers to the others: the nodes' answer as they sent it, or one composed here.
   */
  async answer(text: string, calls: RpcCall[], batch: boolean, own: RpcAnswer[]): Promise<GatewayAnswer> {
    if (this.needsReading(calls)) return this.composed(calls, batch, own);
    if (own.length > 0) return this.withOwnAnswers(await this.upstreams.send(text), own);
    const [single] = calls;
    if (!batch && single && MERGEABLE.test(single.method)) return this.merged(text, single);
    return { ...(await this.upstreams.send(text)), cache: 'MISS' };
  }

  /**
   * A batch of which some calls were kept back: the nodes' answers, then the gateway's own
   * (JSON-RPC lets a batch answer come in any order; clients match answers by id).
   */
  private async withOwnAnswers(answer: NodeAnswer, own: RpcAnswer[]): Promise<ComposedAnswer> {
    let upstream: unknown;
    try {
      upstream = JSON.parse((await wholeBody(answer)).toString('utf8'));
    } catch {
      throw new UpstreamError(`${this.network.path}: the answer is not JSON`, false);
    }
    return {
      status: 200,
      body: JSON.stringify([...[upstream].flat(), ...own]),
      contentType: 'application/json; charset=utf-8',
      cache: 'MISS',
    };
  }

  private needsReading(calls: RpcCall[]): boolean {
    for (const call of calls) {
      if (RANGED.has(call.method) || call.method === 'eth_sendRawTransaction') return true;
      if (this.cache && freshnessOf(call.method, call.params).kind !== 'never') return true;
    }
    return false;
  }

  /** Identical single reads in flight at once: the first goes upstream, the others wait for its answer. */
  private async merged(text: string, call: RpcCall): Promise<GatewayAnswer> {
    const key = keyOf(call);
    const running = this.inflight.get(key);
    if (running) {
      const shared = await running;
      if (shared) return { ...shared, body: withId(shared.body, idOf(call)), cache: 'MISS' };
      return { ...(await this.upstreams.send(text)), cache: 'MISS' };
    }
    let settle: (answer: SharedAnswer | null) => void = () => {};
    let fail: (error: unknown) => void = () => {};
    const sharing = new Promise<SharedAnswer | null>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    sharing.catch(() => {}); // each waiting caller answers the failure with its own id
    this.inflight.set(key, sharing);
    try {
      const answer = await this.upstreams.send(text);
      if (!('body' in answer)) {
        settle(null); // streamed to this caller: the others ask the nodes themselves
        return { ...answer, cache: 'MISS' };
      }
      settle(answer);
      return { ...answer, cache: 'MISS' };
    } catch (error) {
      fail(error);
      throw error;
    } finally {
      this.inflight.delete(key);
    }
  }

  private async composed(calls: RpcCall[], batch: boolean, own: RpcAnswer[]): Promise<ComposedAnswer> {
    const epoch = this.epoch;
    const plan: Planned[] = [];
    for (const call of calls) {
      const freshness: Freshness = this.cache ? freshnessOf(call.method, call.params) : { kind: 'never' };
      const key = freshness.kind === 'never' ? undefined : keyOf(call);
      const item: Planned = { call, freshness, key };
      const hit = key === undefined ? undefined : this.cache?.get(key);
      if (hit !== undefined) item.answer = resultJson(idOf(call), hit);
      else if (RANGED.has(call.method)) {
        const refused = await logsRangeRefusal(
          (call.params as unknown[] | undefined)?.[0],
          this.settings.logsMaxRange,
          () => this.head.head(),
        );
        if (refused) {
          item.answer = errorJson(idOf(call), RpcErrorCodes.limitExceeded, refused);
          item.errorCode = RpcErrorCodes.limitExceeded;
        }
      }
      plan.push(item);
    }
    const toSend = plan.filter((item) => item.answer === undefined);
    let status = 200;
    if (toSend.length > 0) {
      // The line is read before the calls go out: an answer is kept only if its block was deep enough then.
      const atBlocks = toSend.some((item) => item.freshness.kind === 'at-block' || item.freshness.kind === 'in-answer');
      status = await this.sendPlanned(toSend, epoch, atBlocks ? this.head.finalBlock() : undefined);
    }
    const parts = [
      ...plan.filter((item) => Object.hasOwn(item.call, 'id')).map((item) => item.answer as string),
      ...own.map((answer) => JSON.stringify(answer)),
    ];
    return {
      status,
      body: batch ? `[${parts.join(',')}]` : (parts[0] ?? ''),
      contentType: 'application/json',
      cache: toSend.length === 0 ? 'HIT' : 'MISS',
      errorCodes: plan.map((item) => item.errorCode ?? null),
    };
  }

  /**
   * Sends the calls the cache and the guard did not answer, in one request with the gateway's own
   * ids (a client's may repeat or be missing), and reads each answer: kept when it may be, checked
   * against the logs limit, a retried transaction answered with its hash. Answers the HTTP status
   * to pass on (a single call's node status, else 200).
   */
  private async sendPlanned(toSend: Planned[], epoch: number, finalBlock: bigint | undefined): Promise<number> {
    const outgoing = toSend.map((item, index) => ({
      jsonrpc: '2.0',
      id: index,
      method: item.call.method,
      ...(Object.hasOwn(item.call, 'params') ? { params: item.call.params } : {}),
    }));
    const answer = await this.upstreams.send(JSON.stringify(toSend.length === 1 ? outgoing[0] : outgoing));
    const text = (await wholeBody(answer)).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UpstreamError(`${this.network.path}: the answer is not JSON`, false);
    }
    const byId = new Map<unknown, { result?: unknown; error?: { message?: unknown } }>();
    for (const item of [parsed].flat())
      if (item && typeof item === 'object') byId.set((item as { id?: unknown }).id, item);
    for (const [index, item] of toSend.entries()) {
      const id = idOf(item.call);
      const got = byId.get(index);
      if (!got) {
        item.answer = errorJson(id, RpcErrorCodes.upstream, RpcMessages.upstreamFailed(this.network.name));
        item.errorCode = RpcErrorCodes.upstream;
        continue;
      }
      item.answer = await this.read(item, got, id, epoch, finalBlock);
    }
    return toSend.length === 1 && answer.status < 500 ? answer.status : 200;
  }

  private async read(
    item: Planned,
    got: { result?: unknown; error?: { message?: unknown } },
    id: unknown,
    epoch: number,
    finalBlock: bigint | undefined,
  ): Promise<string> {
    const { method, params } = item.call;
    if (got.error !== undefined) {
      if (method === 'eth_sendRawTransaction') {
        const hash = await retriedTransactionHash((params as unknown[] | undefined)?.[0], got.error?.message, (h) =>
          this.call({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [h] }).then(
            (a) => (a as { result?: unknown }).result,
          ),
        );
        if (hash) return resultJson(id, JSON.stringify(hash));
      }
      item.errorCode = errorCodeOf(got.error);
      return JSON.stringify({ jsonrpc: '2.0', id, error: got.error });
    }
    if (method === 'eth_getLogs') {
      const refused = logsCountRefusal(got.result, this.settings.logsMaxResults);
      if (refused) {
        item.errorCode = RpcErrorCodes.limitExceeded;
        return errorJson(id, RpcErrorCodes.limitExceeded, refused);
      }
    }
    const result = JSON.stringify(got.result ?? null);
    if (item.key !== undefined && epoch === this.epoch && mayKeep(item.freshness, got.result, finalBlock)) {
      this.cache?.set(item.key, result);
    }
    return resultJson(id, result);
  }

  close(): void {
    this.head.stop();
  }
}
