import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { type Dispatcher, Pool } from 'undici';
import type { UpstreamEntry } from '../../config-rpc.ts';
import { BUFFERED_ANSWER_MAX_BYTES, type NodeAnswer } from './node-answer.ts';
import { NodeWindow } from './node-window.ts';

/** What the operator and the router see of a node (docs/operations.md "Upstream nodes"). */
export type NodeState = 'up' | 'lagging' | 'limited' | 'down';

/**
 * Why a node gave no answer: refused before it could read the call (a send may go elsewhere),
 * reset, timed out, a 5xx, or a 429 ("limited" for its Retry-After).
 */
export type FailureKind = 'refused' | 'reset' | 'timeout' | 'http' | 'limited';

export class NodeFailure extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    /** A 429's Retry-After, ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A call cancelled by the gateway itself (a hedge's loser): no fault of the node's. */
export class CallCancelled extends Error {}

/** Lets the caller cancel a call in flight (the hedge that lost). */
export interface CallControl {
  cancel?: () => void;
}

/** Node errors that mean the connection never carried the call (a send may be tried elsewhere). */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function failureOf(error: unknown): NodeFailure | CallCancelled {
  if (error instanceof NodeFailure || error instanceof CallCancelled) return error;
  const code = String((error as { code?: unknown })?.code ?? '');
  const message = (error as Error)?.message ?? String(error);
  if (NOT_SENT.has(code)) return new NodeFailure(message, 'refused');
  if (TIMEOUTS.has(code)) return new NodeFailure(message, 'timeout');
  return new NodeFailure(message, 'reset');
}

/** A 429's Retry-After (seconds or an HTTP date), ms; 1 s when absent or unreadable, at most 60 s. */
function retryAfterMs(value: string | undefined): number {
  if (value === undefined) return 1000;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 60_000) : 1000;
}

const UPSTREAM_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** Calls whose outcome decides whether a node is down: half of the last 20 failed, and at least 5. */
const OUTCOMES = 20;
const MIN_FAILURES = 5;
/** The latest latency weighs this much in the estimate; an estimate not renewed decays to nothing in about this long. */
const LATENCY_WEIGHT = 0.3;
const LATENCY_DECAY_MS = 15_000;
const MAX_COOL_DOWN_MS = 60_000;
/** A node's typical latency is the median of its last few calls (at least 3), while they are recent. */
const RECENT = 8;
const RECENT_MIN = 3;
const RECENT_FOR_MS = 10_000;

/**
 * A node's stable key (the same in every process, which share `secret`): names the node that holds a
 * filter in the filter's id, without telling its address to anyone who reads the id.
 */
export const nodeKeyOf = (url: string, secret: Buffer) =>
  createHmac('sha256', secret).update(`node\n${url}`).digest('hex').slice(0, 8);

/**
 * One upstream node: a pool of kept-alive connections, its traits, its head, its state (down after
 * failing half of its last 20 calls, for a cool-down that doubles to 60 s; limited after a 429), and
 * its figures: calls in flight, a latency estimate, the last minute.
 */
export class UpstreamNode {
  readonly pool: Pool;
  readonly path: string;
  readonly key: string;
  /** The address without credentials a node provider may put in its path or query. */
  readonly label: string;
  readonly archive: boolean;
  readonly weight: number;
  readonly maxInFlight: number;
  inFlight = 0;
  /** Its head, as last read, and when (ms); undefined before the first read. */
  head: bigint | undefined;
  headAt = 0;
  limitedUntil = 0;
  downUntil = 0;
  /** Why it went down, for the log and the admin command. */
  downReason = '';
  /** Calls sent to it, retried elsewhere after it failed, and hedged elsewhere after it was slow, since start. */
  selected = 0;
  retries = 0;
  hedges = 0;
  /** The smooth weighted round robin's running share (upstreams.ts). */
  current = 0;
  readonly window = new NodeWindow();
  private latencyMs: number | undefined;
  private latencyAt = 0;
  private readonly recent = new Float64Array(RECENT);
  private recentCount = 0;
  /** The median of `recent`, worked out when asked after a change (only a fleet of several nodes asks). */
  private recentMedian: number | undefined;
  private readonly outcomes = new Uint8Array(OUTCOMES);
  private outcomeCount = 0;
  private failures = 0;
  private coolDownMs: number;
  /** A node past its cool-down gets one call to show it is back; set while that call is out. */
  private trying = false;

  constructor(
    entry: UpstreamEntry,
    private readonly firstCoolDownMs: number,
    /** Its origin, numbered when another node of the network shares it. */
    label: string,
    /** Keys the node's key (nodeKeyOf). */
    keySecret: Buffer,
  ) {
    const url = new URL(entry.url);
    this.pool = new Pool(url.origin, { connections: 256, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 });
    this.path = `${url.pathname}${url.search}`;
    this.key = nodeKeyOf(entry.url, keySecret);
    this.label = label;
    this.archive = entry.archive;
    this.weight = entry.weight;
    this.maxInFlight = entry.maxInFlight;
    this.coolDownMs = firstCoolDownMs;
  }

  /** Its state now, given the network's best head and the lag it allows. */
  state(bestHead: bigint | undefined, maxLag: number, now = Date.now()): NodeState {
    if (this.downUntil > 0) return 'down';
    if (this.limitedUntil > now) return 'limited';
    if (this.lagBehind(bestHead) > maxLag) return 'lagging';
    return 'up';
  }

  /**
   * Blocks below the best head: 0 before any head is known; without limit for a node whose own head
   * was never read while others' were (it may be anywhere).
   */
  lagBehind(bestHead: bigint | undefined): number {
    if (bestHead === undefined) return 0;
    if (this.head === undefined) return Number.POSITIVE_INFINITY;
    return this.head >= bestHead ? 0 : Number(bestHead - this.head);
  }

  /** Whether it may take a call now: not limited, not at its most in flight; a down one only for its one try. */
  available(now: number): boolean {
    if (this.maxInFlight > 0 && this.inFlight >= this.maxInFlight) return false;
    if (this.limitedUntil > now) return false;
    if (this.downUntil === 0) return true;
    return now >= this.downUntil && !this.trying;
  }

  /** The latency estimate (ms), decayed while it is not renewed, so that a node left alone is tried again. */
  latency(now: number): number {
    if (this.latencyMs === undefined) return 0;
    return this.latencyMs * Math.exp(-(now - this.latencyAt) / LATENCY_DECAY_MS);
  }

  /**
   * Its typical latency (ms): the median of its last calls, robust to one slow answer; undefined
   * with too few, or when none is recent (a node left out of the fastest tier is tried again).
   */
  typical(now: number): number | undefined {
    if (this.recentCount < RECENT_MIN || now - this.latencyAt > RECENT_FOR_MS) return undefined;
    if (this.recentMedian === undefined) {
      const last = Array.from(this.recent.subarray(0, Math.min(this.recentCount, RECENT))).sort((a, b) => a - b);
      this.recentMedian = last[Math.floor(last.length / 2)] as number;
    }
    return this.recentMedian;
  }

  /** Its share of the next call beside nodes of its tier: its weight, less for calls in flight and latency. */
  effectiveWeight(now: number): number {
    return this.weight / ((this.inFlight + 1) * (this.latency(now) + 2));
  }

  private observe(ms: number, now: number): void {
    const estimate = this.latency(now);
    this.latencyMs = this.latencyMs === undefined ? ms : estimate + LATENCY_WEIGHT * (ms - estimate);
    this.latencyAt = now;
    this.recent[this.recentCount % RECENT] = ms;
    this.recentCount += 1;
    this.recentMedian = undefined;
  }

  /**
   * Sends a body and answers the node's answer, through undici's dispatch(): no promise or stream
   * per request for the answers read whole, which are nearly all of them. A connection error, a
   * timeout, a 5xx or a 429 rejects with a NodeFailure; `control.cancel` drops the call. How the
   * call counts: `call` (a customer's call, its latency telling the node's speed), `heavy` (a
   * customer's call whose time says more of the call than of the node: logs, traces), or `poll`
   * (the router's head read, whose outcome the poller counts).
   */
  ask(
    body: string,
    timeoutMs: number,
    control?: CallControl,
    counts: 'call' | 'heavy' | 'poll' = 'call',
  ): Promise<NodeAnswer> {
    const started = performance.now();
    this.inFlight += 1;
    const trial = this.downUntil > 0;
    if (trial) this.trying = true;
    return this.dispatch(body, timeoutMs, control).then(
      (answer) => {
        this.settle(started, trial, counts);
        return answer;
      },
      (error: unknown) => {
        const failure = failureOf(error);
        this.settle(started, trial, counts, failure);
        throw failure;
      },
    );
  }

  /** A call's end: counted, timed, and whether the node is up, limited or down. */
  private settle(
    started: number,
    trial: boolean,
    counts: 'call' | 'heavy' | 'poll',
    failure?: NodeFailure | CallCancelled,
  ): void {
    const now = Date.now();
    const ms = performance.now() - started;
    this.inFlight -= 1;
    if (trial) this.trying = false;
    if (counts === 'poll') return;
    // A failure fast or slow says nothing of the node's speed, but a call cut off (a timeout, a
    // hedge's loser) says it was at least that slow.
    const timedOut = failure instanceof NodeFailure && failure.kind === 'timeout';
    const cutOff = failure instanceof CallCancelled || timedOut;
    if (counts === 'call' && (!failure || cutOff)) this.observe(ms, now);
    if (failure instanceof CallCancelled) return;
    const answered = failure === undefined;
    this.window.record(ms, !answered, now);
    if (failure?.kind === 'limited') {
      this.limitedUntil = now + (failure.retryAfterMs ?? 1000);
      return;
    }
    // A customer's call that takes too long may be the call's fault (a huge range, a long trace): a
    // node that hangs is found by its head reads, which time out too.
    if (timedOut) return;
    this.outcome(answered, failure?.message ?? '', now);
  }

  /** A head read's outcome counts as a call's (it is the down node's one try too). */
  outcome(answered: boolean, reason: string, now = Date.now()): void {
    if (this.downUntil > 0) {
      if (answered) this.back();
      else if (now >= this.downUntil) this.goDown(reason, now, true);
      return;
    }
    const index = this.outcomeCount % OUTCOMES;
    if (this.outcomeCount >= OUTCOMES) this.failures -= this.outcomes[index] as number;
    this.outcomes[index] = answered ? 0 : 1;
    this.failures += answered ? 0 : 1;
    this.outcomeCount += 1;
    const counted = Math.min(this.outcomeCount, OUTCOMES);
    if (this.failures >= MIN_FAILURES && this.failures * 2 >= counted) this.goDown(reason, now, false);
  }

  /** Down at once, whatever its last calls (it answers for another chain). */
  wrongChain(reason: string, now = Date.now()): void {
    this.goDown(reason, now, this.downUntil > 0 && now >= this.downUntil);
  }

  /** Down for its cool-down (doubled at each failed try, up to 60 s). */
  private goDown(reason: string, now: number, again: boolean): void {
    if (again) this.coolDownMs = Math.min(this.coolDownMs * 2, MAX_COOL_DOWN_MS);
    this.downUntil = now + this.coolDownMs;
    this.downReason = reason;
  }

  private back(): void {
    this.downUntil = 0;
    this.downReason = '';
    this.coolDownMs = this.firstCoolDownMs;
    this.outcomes.fill(0);
    this.outcomeCount = 0;
    this.failures = 0;
  }

  private dispatch(body: string, timeoutMs: number, control: CallControl | undefined): Promise<NodeAnswer> {
    return new Promise((resolve, reject) => {
      let status = 0;
      let contentType = 'application/json';
      let retryAfter: string | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      let stream: Readable | undefined;
      let ended = false;
      let cancelled = false;
      let abort: ((error: Error) => void) | undefined;
      let resume: () => void = () => {};
      const failing = () => status >= 500 || status === 429;
      if (control) {
        control.cancel = () => {
          if (ended || cancelled) return;
          cancelled = true;
          const error = new CallCancelled('the call was answered by another node');
          if (abort) abort(error);
          else reject(error);
        };
      }
      // undici's own handler style (its core calls these): the newer one is adapted per request,
      // which parses every answer's headers into an object.
      const handler = {
        onConnect(abortRequest: (error: Error) => void) {
          abort = abortRequest;
          if (cancelled) abortRequest(new CallCancelled('the call was answered by another node'));
        },
        onHeaders(statusCode: number, rawHeaders: Buffer[], resumeReading: () => void): boolean {
          status = statusCode;
          resume = resumeReading;
          let length: string | undefined;
          for (let i = 0; i < rawHeaders.length; i += 2) {
            const name = String(rawHeaders[i]).toLowerCase();
            if (name === 'content-length') length = String(rawHeaders[i + 1]);
            else if (name === 'content-type') contentType = String(rawHeaders[i + 1]);
            else if (name === 'retry-after') retryAfter = String(rawHeaders[i + 1]);
          }
          if (failing() || (length !== undefined && Number(length) <= BUFFERED_ANSWER_MAX_BYTES)) return true;
          stream = new Readable({
            read: () => resume(),
            destroy: (error, done) => {
              // The caller went away before the end: the node's answer is not read further.
              if (!ended) abort?.(error ?? new Error('answer no longer wanted'));
              done(error);
            },
          });
          resolve({ status, contentType, stream, length });
          return true;
        },
        onData(chunk: Buffer): boolean {
          if (stream) return stream.push(chunk);
          if (!failing()) {
            chunks.push(chunk);
            size += chunk.length;
          }
          return true;
        },
        onComplete() {
          ended = true;
          if (stream) stream.push(null);
          else if (status === 429) reject(new NodeFailure('HTTP 429', 'limited', retryAfterMs(retryAfter)));
          else if (failing()) reject(new NodeFailure(`HTTP ${status}`, 'http'));
          else
            resolve({
              status,
              contentType,
              body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
            });
        },
        onError(error: Error) {
          ended = true;
          if (stream) stream.destroy(error);
          else reject(cancelled ? new CallCancelled(error.message) : error);
        },
      };
      this.pool.dispatch(
        {
          path: this.path,
          method: 'POST',
          headers: UPSTREAM_HEADERS,
          body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        handler as unknown as Dispatcher.DispatchHandler,
      );
    });
  }
}
