import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { FlushLoop } from '../../jobs/flush-loop.ts';
import { merge, record as recordLatency } from './latency-histogram.ts';
import { addMethodStats, type MethodStatCount } from './method-stats.store.ts';
import { addRecentCalls, type RecentCalls } from './recent-calls.store.ts';
import { addRequests, type LoggedRequest } from './request-log.store.ts';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** Each account's failed requests kept per flush; the rest are counted in the figures only. */
export const FAILURES_LOGGED_PER_FLUSH = 100;
/** Each account's successful requests kept per flush, chosen at random among them. */
export const SUCCESSES_LOGGED_PER_FLUSH = 10;
/** Bounds on what one process holds between flushes (and keeps while the database is away). */
const MAX_FIGURES = 100_000;
const MAX_LOGGED = 50_000;
/** A method name as figures keep it; anything else is counted as INVALID_METHOD. */
const METHOD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const INVALID_METHOD = '(invalid)';
const MAX_ORIGIN = 200;

/** An hour's figures as held between flushes, with the latency's sum for the operator's metrics. */
type Figures = MethodStatCount & { latencySumMs: number };

/** A network and method's figures since start. */
export type MethodTotals = Omit<Figures, 'accountId' | 'apiKeyId' | 'hour'>;

const noCalls = () => ({
  calls: 0,
  rpcErrors: 0,
  refused: 0,
  upstreamErrors: 0,
  latency: [] as number[],
  latencySumMs: 0,
});

/** Distinct network-method pairs in the totals; past it, calls are added to OTHER_METHODS. */
const MAX_TOTALS = 2000;
const OTHER_METHODS = '(other)';

/** What the gateway saw of one request whose key it accepted. */
export interface ObservedRequest {
  accountId: string;
  apiKeyId: string;
  /** The network's path. */
  network: string;
  /** The request's calls, in order (none when the body was not JSON-RPC). */
  calls: ReadonlyArray<{ method: unknown }>;
  httpStatus: number;
  /** Each call's JSON-RPC error code (null: answered); absent when no call got an error. */
  callErrors?: ReadonlyArray<number | null>;
  /** The refusal's JSON-RPC code when the whole request was refused. */
  refusalCode?: number;
  latencyMs: number;
  clientIp: string;
  origin: string | undefined;
}

interface AccountSample {
  successesSeen: number;
  successes: LoggedRequest[];
  failures: number;
}

/**
 * The gateway's insight for customers: calls, errors by kind and latency per account, key,
 * network, method and hour, and a sample of the requests (every failed one, up to a bound; a few
 * successful ones at random), held in memory and written every few seconds and at shutdown, like
 * the usage (UsageMeter): no database write per request. Billing never reads these.
 */
export class GatewayInsight {
  private figures = new Map<string, Figures>();
  /** Calls and failed calls per account and minute (the error-rate alert). */
  private recent = new Map<string, RecentCalls>();
  private samples = new Map<string, AccountSample>();
  private failed: LoggedRequest[] = [];
  private logged = 0;
  private readonly loop = new FlushLoop(() => this.write());
  /** Calls, errors by kind and latency per network and method since start, as of the last flush (the operator's metrics). */
  readonly totals = new Map<string, MethodTotals>();
  /** Figures and requests left out since start because a bound was reached (the operator's metrics). */
  dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** Off: nothing is recorded (RPC_INSIGHT=false). */
    readonly enabled: boolean,
  ) {}

  record(request: ObservedRequest): void {
    if (!this.enabled) return;
    const now = Date.now();
    const hour = now - (now % HOUR_MS);
    const { httpStatus, callErrors } = request;
    const refused = httpStatus >= 400 && httpStatus < 500;
    const upstream = httpStatus >= 500;
    let errorCode = request.refusalCode ?? null;
    let failedCalls = 0;
    const calls = request.calls.length > 0 ? request.calls : [{ method: INVALID_METHOD }];
    for (let i = 0; i < calls.length; i++) {
      const method = methodName(calls[i]?.method);
      const code = callErrors?.[i] ?? null;
      if (errorCode === null && code !== null) errorCode = code;
      if (upstream || refused || code !== null) failedCalls += 1;
      const figures = this.figuresOf(request, method, hour);
      if (!figures) continue;
      figures.calls += 1;
      if (upstream) figures.upstreamErrors += 1;
      else if (refused) figures.refused += 1;
      else if (code !== null) figures.rpcErrors += 1;
      recordLatency(figures.latency, request.latencyMs);
      figures.latencySumMs += request.latencyMs;
    }
    this.countRecent(request.accountId, now - (now % MINUTE_MS), calls.length, failedCalls);
    this.sample(request, now, httpStatus >= 400 || errorCode !== null, errorCode);
  }

  private countRecent(accountId: string, minute: number, calls: number, errors: number): void {
    const key = `${accountId}|${minute}`;
    const known = this.recent.get(key);
    if (known) {
      known.calls += calls;
      known.errors += errors;
    } else if (this.recent.size < MAX_FIGURES) this.recent.set(key, { accountId, minute, calls, errors });
    else this.dropped += 1;
  }

  private figuresOf(request: ObservedRequest, method: string, hour: number): Figures | undefined {
    const key = figuresKey(request, method, hour);
    const known = this.figures.get(key);
    if (known) return known;
    if (this.figures.size >= MAX_FIGURES) {
      this.dropped += 1;
      return undefined;
    }
    const figures: Figures = {
      accountId: request.accountId,
      apiKeyId: request.apiKeyId,
      network: request.network,
      method,
      hour,
      ...noCalls(),
    };
    this.figures.set(key, figures);
    return figures;
  }

  /** Keeps a failed request while its account's bound allows, a successful one by reservoir sampling. */
  private sample(request: ObservedRequest, at: number, failed: boolean, errorCode: number | null): void {
    let sample = this.samples.get(request.accountId);
    if (!sample) {
      sample = { successesSeen: 0, successes: [], failures: 0 };
      this.samples.set(request.accountId, sample);
    }
    if (failed) {
      if (sample.failures >= FAILURES_LOGGED_PER_FLUSH || this.logged >= MAX_LOGGED) {
        this.dropped += 1;
        return;
      }
      sample.failures += 1;
      this.logged += 1;
      this.failed.push(this.entry(request, at, true, errorCode));
      return;
    }
    sample.successesSeen += 1;
    if (sample.successes.length < SUCCESSES_LOGGED_PER_FLUSH) {
      if (this.logged >= MAX_LOGGED) return;
      this.logged += 1;
      sample.successes.push(this.entry(request, at, false, null));
      return;
    }
    const slot = Math.floor(Math.random() * sample.successesSeen);
    if (slot < SUCCESSES_LOGGED_PER_FLUSH) sample.successes[slot] = this.entry(request, at, false, null);
  }

  private entry(request: ObservedRequest, at: number, failed: boolean, errorCode: number | null): LoggedRequest {
    const methods = [...new Set(request.calls.map((call) => methodName(call.method)))].slice(0, 20);
    return {
      accountId: request.accountId,
      apiKeyId: request.apiKeyId,
      network: request.network,
      methods,
      httpStatus: request.httpStatus,
      errorCode,
      failed,
      latencyMs: Math.round(request.latencyMs * 100) / 100,
      clientIp: request.clientIp,
      origin: request.origin ? request.origin.slice(0, MAX_ORIGIN) : null,
      at: new Date(at),
    };
  }

  /** Calls counted and not yet written. */
  get unflushed(): number {
    let total = 0;
    for (const figures of this.figures.values()) total += figures.calls;
    return total;
  }

  /** Writes what has been counted and sampled; flushes run one after another. */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  private async write(): Promise<void> {
    const figures = [...this.figures.values()];
    const recent = [...this.recent.values()];
    const requests = [...this.failed, ...[...this.samples.values()].flatMap((s) => s.successes)];
    this.figures = new Map();
    this.recent = new Map();
    this.samples = new Map();
    this.failed = [];
    this.logged = 0;
    if (figures.length === 0 && requests.length === 0) return;
    try {
      await addMethodStats(this.db, figures);
      await addRecentCalls(this.db, recent);
      // Counted once written: figures kept for the next flush are not counted twice.
      for (const f of figures) this.addToTotals(f);
    } catch (error) {
      // Kept for the next flush, within the bound; the requests' sample is let go.
      for (const f of figures) this.keep(f);
      for (const r of recent) this.countRecent(r.accountId, r.minute, r.calls, r.errors);
      this.log.error(
        { err: error, figures: figures.length },
        'gateway figures could not be written; kept for the next flush',
      );
      throw error;
    }
    try {
      await addRequests(this.db, requests);
    } catch (error) {
      this.dropped += requests.length;
      this.log.error({ err: error, requests: requests.length }, 'request log could not be written');
      throw error;
    }
  }

  /** Adds a flush's figures to the totals since start, per network and method, within a bound. */
  private addToTotals(figures: Figures): void {
    let key = `${figures.network}|${figures.method}`;
    if (!this.totals.has(key) && this.totals.size >= MAX_TOTALS) key = `${figures.network}|${OTHER_METHODS}`;
    let total = this.totals.get(key);
    if (!total) {
      total = { network: figures.network, method: key.slice(figures.network.length + 1), ...noCalls() };
      this.totals.set(key, total);
    }
    total.calls += figures.calls;
    total.rpcErrors += figures.rpcErrors;
    total.refused += figures.refused;
    total.upstreamErrors += figures.upstreamErrors;
    total.latencySumMs += figures.latencySumMs;
    merge(total.latency, figures.latency);
  }

  private keep(figures: Figures): void {
    const key = figuresKey(figures, figures.method, figures.hour);
    const known = this.figures.get(key);
    if (!known) {
      if (this.figures.size < MAX_FIGURES) this.figures.set(key, figures);
      else this.dropped += 1;
      return;
    }
    known.calls += figures.calls;
    known.rpcErrors += figures.rpcErrors;
    known.refused += figures.refused;
    known.upstreamErrors += figures.upstreamErrors;
    merge(known.latency, figures.latency);
    known.latencySumMs += figures.latencySumMs;
  }

  start(intervalMs: number): void {
    if (this.enabled) this.loop.start(intervalMs);
  }

  /** Stops the timer and writes what is left (at shutdown). */
  async stop(): Promise<void> {
    await this.loop.stop().catch(() => {});
  }
}

const figuresKey = (of: { accountId: string; apiKeyId: string; network: string }, method: string, hour: number) =>
  `${of.accountId}|${of.apiKeyId}|${of.network}|${method}|${hour}`;

function methodName(method: unknown): string {
  return typeof method === 'string' && METHOD_NAME.test(method) ? method : INVALID_METHOD;
}
