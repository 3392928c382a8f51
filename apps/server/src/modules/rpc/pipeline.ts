import { RpcErrorCodes, RpcMessages, type RpcNetwork } from '@ebs/contract';
import { errorsAndMessageInAnswer, type GatewayInsight, loggedMessage, notedErrors } from '../insight/index.ts';
import type { KeyLimits, KeyRequest } from '../keys/index.ts';
import type { MethodPolicy } from './method-policy.ts';
import type { AnswerOptions, GatewayAnswer, NetworkGateway } from './network-gateway.ts';
import { UpstreamError } from './node-answer.ts';
import type { PriceBook } from './price-book.ts';
import { type PlannedCall, type RequestPlan, screenCalls } from './request-plan.ts';
import type { Caller } from './rpc-request.ts';
import { type ParsedRpcBody, parseRpcBody, RpcRefusal } from './rpc-request.ts';
import type { SpendingGuard } from './spending-guard.ts';
import type { StatusHours } from './status-hours.ts';
import type { UsageMeter } from './usage-meter.ts';

/** Node answers searched for their calls' errors at most this large (a larger one is rarely an error, and costly to parse). */
const SEARCHED_ANSWER_MAX_BYTES = 1024 * 1024;

/** One request as a transport hands it over: who sent what, to which network, and how it wants the answer. */
export interface Exchange extends AnswerOptions {
  caller: Caller;
  network: RpcNetwork;
  /** What the caller showed of itself (its client address and origin, for the request log). */
  shown: KeyRequest;
  /** The body, as text: read by the transport, still arriving over HTTP. */
  body: string | Promise<string>;
  /** Whether the caller went away (a request it never saw answered is not counted). */
  gone?: () => boolean;
}

export interface PipelineParts {
  policy: MethodPolicy;
  limits: KeyLimits;
  meter: UsageMeter;
  prices: PriceBook;
  spending: SpendingGuard;
  insight: GatewayInsight;
  networks: ReadonlyMap<string, NetworkGateway>;
  hours: StatusHours;
  maxBatch: number;
}

/**
 * The gateway's one pipeline (docs/architecture.md "The gateway's pipeline"): every request, over
 * HTTP or WebSocket, runs these stages in order, each a function with one job; the transports only
 * turn bytes into an Exchange and the answer into bytes. A refusal of the whole request is thrown as
 * an RpcRefusal, which the transport writes out.
 */
export class RpcPipeline {
  constructor(private readonly parts: PipelineParts) {}

  async run(exchange: Exchange): Promise<GatewayAnswer> {
    const started = performance.now();
    let parsed: ParsedRpcBody | undefined;
    let requestChars: number | undefined;
    let passing = 0;
    try {
      // Stages with nothing to wait for are not awaited: each await costs the hot path a turn.
      const text = typeof exchange.body === 'string' ? exchange.body : await exchange.body;
      requestChars = text.length;
      parsed = this.parse(text);
      const plan = this.screen(exchange, parsed);
      passing = plan.passing;
      if (plan.passing > 0) {
        this.cap(exchange, plan);
        if (this.parts.limits.applies(exchange.caller.key.limits)) await this.limit(exchange, plan);
      }
      const gateway = this.network(exchange, parsed);
      const planning = gateway.plan(plan, exchange.local !== undefined);
      if (planning) await planning;
      const answer = await this.forward(gateway, exchange, plan, text);
      this.meter(exchange, plan);
      this.observe(exchange, plan, started, answer, requestChars);
      return answer;
    } catch (thrown) {
      // No node answered: the network's hour counts these calls as failed (the Status page).
      if (thrown instanceof UpstreamError && passing > 0)
        this.parts.hours.count(exchange.network.path, passing, passing);
      const error = refusalOf(thrown, exchange.network, parsed);
      this.observeFailure(exchange, parsed, started, error, requestChars);
      throw error;
    }
  }

  /** parse: one JSON-RPC 2.0 request object, or a batch of them within RPC_MAX_BATCH. */
  private parse(body: string): ParsedRpcBody {
    return parseRpcBody(body, this.parts.maxBatch);
  }

  /** screen: the method policy and the key's allowed methods and contracts, call by call. */
  private screen(exchange: Exchange, parsed: ParsedRpcBody): RequestPlan {
    const { caller } = exchange;
    return screenCalls(caller.accountId, parsed, this.parts.policy, caller.key.policy, this.unitsOf);
  }

  private readonly unitsOf = (item: PlannedCall) => this.parts.prices.unitsOf(item);

  /** cap: the account's monthly spending cap (HTTP 402 once this month's usage reaches it). */
  private cap(exchange: Exchange, plan: RequestPlan): void {
    const refused = this.parts.spending.refusal(exchange.caller.accountId);
    if (refused && !onlyUnsubscribes(plan)) {
      throw new RpcRefusal(402, RpcErrorCodes.spendingCap, refused, plan.parsed.id);
    }
  }

  /** limit: the key's rates, for the calls that passed the screen (HTTP 429 with Retry-After past one). */
  private async limit(exchange: Exchange, plan: RequestPlan): Promise<void> {
    const { caller } = exchange;
    const refused = await this.parts.limits.count(caller.apiKeyId, caller.key.limits, plan.passing, plan.computeUnits);
    if (refused) {
      throw new RpcRefusal(429, RpcErrorCodes.rateLimited, refused.message, plan.parsed.id, {
        'retry-after': String(refused.retryAfterSeconds),
      });
    }
  }

  private network(exchange: Exchange, parsed: ParsedRpcBody): NetworkGateway {
    const gateway = this.parts.networks.get(exchange.network.path);
    if (!gateway) {
      throw new RpcRefusal(404, RpcErrorCodes.notFound, RpcMessages.unknownNetwork(exchange.network.path), parsed.id);
    }
    return gateway;
  }

  /**
   * forward and compose (network-gateway.ts): the calls sent by their route, and the answer to all
   * of them; no node answering is a refusal of the request (refusalOf).
   */
  private forward(
    gateway: NetworkGateway,
    exchange: Exchange,
    plan: RequestPlan,
    text: string,
  ): Promise<GatewayAnswer> {
    return gateway.answer(plan, text, exchange);
  }

  /**
   * meter: every call past the screen is the customer's, answered from the cache or by a node alike,
   * priced by its compute units (those the gateway refused or failed cost nothing); and an answered
   * call of its network's hour, for the Status page.
   */
  private meter(exchange: Exchange, plan: RequestPlan): void {
    if (plan.passing === 0) return;
    const { caller, network } = exchange;
    this.charge(caller, network, plan.passing, this.parts.prices.costOf(plan));
    this.parts.hours.count(network.path, plan.passing, 0);
  }

  /** Counts calls and their compute units in the account's usage and against its spending cap. */
  private charge(caller: Caller, network: RpcNetwork, calls: number, units: number): void {
    const { meter, prices, spending } = this.parts;
    meter.count(caller.accountId, caller.apiKeyId, network.resource, calls, units);
    if (units > 0) spending.spent(caller.accountId, units * prices.unitPrice(network.resource));
  }

  /** Whether an account's subscriptions are paused: past its spending cap, their notifications are not sent. */
  paused(caller: Caller): boolean {
    return this.parts.spending.refusal(caller.accountId) !== null;
  }

  /** A subscription's notification sent: one call, priced by its size. */
  notified(caller: Caller, network: RpcNetwork, bytes: number): void {
    this.charge(caller, network, 1, this.parts.prices.notificationUnits(bytes));
  }

  /**
   * observe: the request counted per method and sampled into its account's request log, with each
   * call's error as the gateway noted it while composing, else searched in the node's answer (a
   * streamed, large, answer is not read).
   */
  private observe(
    exchange: Exchange,
    plan: RequestPlan,
    started: number,
    answer: GatewayAnswer,
    requestChars: number,
  ): void {
    const { insight } = this.parts;
    if (!insight.enabled) return;
    const { parsed } = plan;
    // The calls of a batch the key's own rules refused (rare) are counted as refused, not as errors.
    const refusedCalls =
      plan.refusedByKey > 0
        ? plan.calls.map((call) => call.keptBack === true && call.errorCode === RpcErrorCodes.forbidden)
        : undefined;
    let callErrors: ReadonlyArray<number | null> | undefined;
    // A node's error answer (rare) also gives its first message for the request log, from one parse;
    // an answer the gateway composed with an error is read for it only when small.
    let errorMessage: string | undefined;
    if ('errorCodes' in answer && answer.errorCodes) {
      callErrors = notedErrors(answer.errorCodes);
      if (callErrors && answer.body.length <= COMPOSED_MESSAGE_MAX_BYTES) {
        errorMessage = errorsAndMessageInAnswer(answer.body, parsed.requests)?.message;
      }
    } else if ('body' in answer && answer.body.length <= SEARCHED_ANSWER_MAX_BYTES) {
      const found = errorsAndMessageInAnswer(answer.body, parsed.requests);
      callErrors = found?.codes;
      errorMessage = found?.message;
    }
    const latency = performance.now() - started;
    // A successful request (nearly all) allocates nothing more for its log entry.
    const failure = callErrors ? { errorMessage, refusedCalls } : undefined;
    insight.record(
      this.observer(exchange),
      parsed.methods,
      answer.status,
      latency,
      callErrors,
      undefined,
      requestChars,
      failure,
      plan.calls.map((item) => item.units),
    );
  }

  private observeFailure(
    exchange: Exchange,
    parsed: ParsedRpcBody | undefined,
    started: number,
    error: unknown,
    requestChars: number | undefined,
  ): void {
    const { insight } = this.parts;
    if (!insight.enabled) return;
    const refusal = error instanceof RpcRefusal ? error : undefined;
    // A caller that hung up saw no answer: nothing to count.
    if (!refusal && exchange.gone?.()) return;
    insight.record(
      this.observer(exchange),
      parsed?.methods ?? [],
      refusal?.httpStatus ?? 500,
      performance.now() - started,
      undefined,
      refusal?.code ?? RpcErrorCodes.upstream,
      requestChars,
      { errorMessage: refusal ? loggedMessage(refusal.message) : undefined },
    );
  }

  private observer(exchange: Exchange) {
    const { caller, network, shown } = exchange;
    return {
      accountId: caller.accountId,
      apiKeyId: caller.apiKeyId,
      network: network.path,
      clientIp: shown.ip,
      origin: shown.origin,
    };
  }
}

/** Calls that only end paused subscriptions: served past the cap, so that a client may let them go. */
const onlyUnsubscribes = (plan: RequestPlan) =>
  plan.calls.every((item) => item.keptBack || item.call.method === 'eth_unsubscribe');

/** A composed answer holding an error is read again for its message only up to this size. */
const COMPOSED_MESSAGE_MAX_BYTES = 64 * 1024;

/** What the caller is told when no node answered (HTTP 502, or 504 on a timeout); any other error as it is. */
function refusalOf(error: unknown, network: RpcNetwork, parsed: ParsedRpcBody | undefined): unknown {
  if (!(error instanceof UpstreamError)) return error;
  const id = parsed?.id ?? null;
  return error.timedOut
    ? new RpcRefusal(504, RpcErrorCodes.upstream, RpcMessages.upstreamTimeout(network.name), id)
    : new RpcRefusal(502, RpcErrorCodes.upstream, RpcMessages.upstreamFailed(network.name), id);
}
