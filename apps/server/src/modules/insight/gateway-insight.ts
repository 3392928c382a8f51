import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { FlushLoop } from '../../jobs/flush-loop.ts';
import { addToBucket, bucketOf, merge } from './latency-histogram.ts';
import type { MethodRun } from './method-run.ts';
import { addMethodStats, type MethodStatCount } from './method-stats.store.ts';
import { INVALID_METHOD, methodName, type Observer } from './observed-request.ts';
import { addRecentCalls, type RecentCalls } from './recent-calls.store.ts';
import { addRequests } from './request-log.store.ts';
import { RequestSample } from './request-sample.ts';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** Figures one process holds between flushes (and keeps while the database is away). */
const MAX_FIGURES = 100_000;

/** An hour's figures as held between flushes, with the latency's sum for the operator's metrics. */
type Figures = MethodStatCount & { latencySumMs: number };

/** One key's figures of one network and hour, by the method as sent (invalid spellings share theirs). */
type MethodFigures = Map<string, Figures>;
/** By key, network and hour. */
type HeldFigures = Map<string, Map<string, Map<number, MethodFigures>>>;

/**
 * Adds a run of `calls` calls of one method costing `units` compute units: `rpcErrors` of them
 * answered with an error, and `refusedCalls` refused by the key's rules inside an answered batch.
 */
function addRun(
  figures: Figures,
  calls: number,
  units: number,
  rpcErrors: number,
  refusedCalls: number,
  upstream: boolean,
  refused: boolean,
  bucket: number,
  latencyMs: number,
): void {
  figures.calls += calls;
  figures.computeUnits += units;
  if (upstream) figures.upstreamErrors += calls;
  else if (refused) figures.refused += calls;
  else {
    figures.rpcErrors += rpcErrors;
    figures.refused += refusedCalls;
  }
  addToBucket(figures.latency, bucket, calls);
  figures.latencySumMs += latencyMs * calls;
}

/** A network and method's figures since start. */
export type MethodTotals = Omit<Figures, 'accountId' | 'apiKeyId' | 'hour'>;

const noCalls = () => ({
  calls: 0,
  computeUnits: 0,
  rpcErrors: 0,
  refused: 0,
  upstreamErrors: 0,
  latency: [] as number[],
  latencySumMs: 0,
});

/** Distinct network-method pairs in the totals; past it, calls are added to OTHER_METHODS. */
const MAX_TOTALS = 2000;
const OTHER_METHODS = '(other)';

/** Requests noted before they are counted together (record), at most. */
const COUNT_BATCH = 64;

/** What a failed request adds to its figures and its log entry (a successful one passes none). */
export interface FailureDetail {
  /** What the gateway answered: the refusal's or the node's first error message. */
  errorMessage?: string;
  /** By the calls' positions: those the key's own rules refused inside an answered batch. */
  refusedCalls?: readonly boolean[];
}

/** A request as noted on the hot path. */
interface NotedRequest {
  /** The body's length in characters (the log keeps it, never the body). */
  requestChars: number | undefined;
  failure: FailureDetail | undefined;
  seen: Observer;
  methods: readonly MethodRun[];
  httpStatus: number;
  latencyMs: number;
  callErrors: ReadonlyArray<number | null> | undefined;
  refusalCode: number | undefined;
  units: ReadonlyArray<number> | undefined;
  at: number;
}

/** The methods of a request without any (a body that was not JSON-RPC): one invalid call. */
const NO_CALLS: readonly MethodRun[] = [{ method: INVALID_METHOD, calls: 1 }];
/** Spellings of invalid or surplus method names one group maps to shared figures. */
const MAX_SPELLINGS = 200;
/** Distinct methods counted on their own per key, network and hour. */
const MAX_METHODS = 100;

/**
 * The gateway's insight for customers: calls, errors by kind and latency per account, key,
 * network, method and hour, and a sample of the requests (every failed one, up to a bound; a few
 * successful ones at random), held in memory and written every few seconds and at shutdown, like
 * the usage (UsageMeter): no database write per request. Billing never reads these.
 */
export class GatewayInsight {
  /** By key, network and hour, then by the method as sent. */
  private figures: HeldFigures = new Map();
  private figureCount = 0;
  /** Requests noted and not yet counted. */
  private pending: NotedRequest[] = [];
  /** Calls and failed calls of each account's current minute, and of minutes gone by (the error-rate alert). */
  private recent = new Map<string, RecentCalls>();
  private recentDone: RecentCalls[] = [];
  private readonly sample = new RequestSample();
  private readonly loop = new FlushLoop(() => this.write());
  /** Calls, compute units, errors by kind and latency per network and method since start, as of the last flush (the operator's metrics). */
  readonly totals = new Map<string, MethodTotals>();
  private droppedFigures = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /**
     * Off: nothing is recorded (RPC_INSIGHT=false at start; `npm run admin -- rpc insight off` in a
     * running server). What was counted before is still written.
     */
    public enabled: boolean,
  ) {}

  /**
   * Takes one request to count: its calls under their methods, its minute for the error-rate alert,
   * and it maybe into the request log's sample. The hot path: a request is only noted here and
   * counted with the others of its batch of COUNT_BATCH (or at the next flush, whichever comes
   * first), so that the figures' maps come from the processor's caches once per batch: read once
   * per request, they come from memory, as a busy gateway serves many other requests while one
   * waits for its node. `callErrors` and `units` (each call's compute units; none: 0) are by the
   * calls' positions, the runs of `methods` laid end to end.
   */
  record(
    seen: Observer,
    methods: readonly MethodRun[],
    httpStatus: number,
    latencyMs: number,
    callErrors?: ReadonlyArray<number | null>,
    refusalCode?: number,
    requestChars?: number,
    failure?: FailureDetail,
    units?: ReadonlyArray<number>,
  ): void {
    if (!this.enabled) return;
    const at = Date.now();
    this.pending.push({
      seen,
      methods,
      httpStatus,
      latencyMs,
      callErrors,
      refusalCode,
      requestChars,
      failure,
      units,
      at,
    });
    if (this.pending.length >= COUNT_BATCH) this.countPending();
  }

  /** Counts the requests noted since the last time. */
  private countPending(): void {
    const pending = this.pending;
    this.pending = [];
    for (const request of pending) this.count(request);
  }

  /**
   * Counts each run of a request's calls under its method (ParsedRpcBody.methods: a batch of 50
   * eth_call at once), never reading the calls themselves; `callErrors` (rare) and `units` are read
   * by the calls' positions. No string is built, the latency's bucket is found once per request.
   */
  private count(request: NotedRequest): void {
    const { seen, methods, httpStatus, latencyMs, callErrors, refusalCode, requestChars, failure, units, at } = request;
    const hour = at - (at % HOUR_MS);
    const refused = httpStatus >= 400 && httpStatus < 500;
    const upstream = httpStatus >= 500;
    const bucket = bucketOf(latencyMs);
    const group = this.groupOf(seen, hour);
    let errorCode = refusalCode ?? null;
    let calls = 0;
    let rpcErrors = 0;
    const refusedCalls = failure?.refusedCalls;
    for (const run of methods.length > 0 ? methods : NO_CALLS) {
      let runErrors = 0;
      let runRefused = 0;
      let runUnits = 0;
      if (units !== undefined) {
        for (let i = calls; i < calls + run.calls; i++) runUnits += units[i] ?? 0;
      }
      if (callErrors !== undefined) {
        for (let i = calls; i < calls + run.calls; i++) {
          const code = callErrors[i] ?? null;
          if (code === null) continue;
          errorCode ??= code;
          if (refusedCalls?.[i]) runRefused += 1;
          else runErrors += 1;
        }
      }
      calls += run.calls;
      rpcErrors += runErrors;
      const figures = group.get(run.method) ?? this.newFigures(group, seen, run.method, hour);
      if (figures) addRun(figures, run.calls, runUnits, runErrors, runRefused, upstream, refused, bucket, latencyMs);
    }
    this.countRecent(seen.accountId, at - (at % MINUTE_MS), calls, upstream || refused ? calls : rpcErrors);
    this.sample.offer(seen, {
      methods,
      httpStatus,
      latencyMs,
      errorCode,
      errorMessage: failure?.errorMessage,
      requestChars,
      at,
    });
  }

  private countRecent(accountId: string, minute: number, calls: number, errors: number): void {
    const known = this.recent.get(accountId);
    if (known?.minute === minute) {
      known.calls += calls;
      known.errors += errors;
      return;
    }
    if (known) this.recentDone.push(known);
    if (this.recent.size < MAX_FIGURES) this.recent.set(accountId, { accountId, minute, calls, errors });
    else this.droppedFigures += 1;
  }

  /**
   * The figures of one key and network in one hour, by the method as sent: maps by key, network and
   * hour, whose strings hash once (a key built per request would be hashed every time).
   */
  private groupOf(seen: Pick<Observer, 'apiKeyId' | 'network'>, hour: number): MethodFigures {
    let networks = this.figures.get(seen.apiKeyId);
    if (!networks) {
      networks = new Map();
      this.figures.set(seen.apiKeyId, networks);
    }
    let hours = networks.get(seen.network);
    if (!hours) {
      hours = new Map();
      networks.set(seen.network, hours);
    }
    let group = hours.get(hour);
    if (!group) {
      group = new Map();
      hours.set(hour, group);
    }
    return group;
  }

  private newFigures(group: MethodFigures, seen: Observer, sent: string, hour: number): Figures | undefined {
    // Past MAX_METHODS methods in one key's hour, the rest count as OTHER_METHODS: a caller making
    // up method names cannot fill the table with rows.
    const method = group.size >= MAX_METHODS ? OTHER_METHODS : methodName(sent);
    // Every method name that is not one shares the INVALID_METHOD figures of the group.
    const same = method === sent ? undefined : [...group.values()].find((f) => f.method === method);
    if (same) {
      if (group.size < MAX_SPELLINGS) group.set(sent, same);
      return same;
    }
    if (this.figureCount >= MAX_FIGURES) {
      this.droppedFigures += 1;
      return undefined;
    }
    const figures: Figures = {
      accountId: seen.accountId,
      apiKeyId: seen.apiKeyId,
      network: seen.network,
      method,
      hour,
      ...noCalls(),
    };
    this.figureCount += 1;
    group.set(sent, figures);
    return figures;
  }

  /** Figures and requests left out since start because a bound was reached (the operator's metrics). */
  get dropped(): number {
    return this.droppedFigures + this.sample.dropped;
  }

  /** Calls counted and not yet written. */
  get unflushed(): number {
    this.countPending();
    let total = 0;
    for (const figures of this.allFigures()) total += figures.calls;
    return total;
  }

  /** Writes what has been counted and sampled; flushes run one after another. */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  private async write(): Promise<void> {
    this.countPending();
    const figures = this.allFigures();
    const recent = [...this.recentDone, ...this.recent.values()];
    const requests = this.sample.take();
    this.figures = new Map();
    this.figureCount = 0;
    this.recent = new Map();
    this.recentDone = [];
    if (figures.length === 0 && requests.length === 0) return;
    try {
      await addMethodStats(this.db, figures);
      await addRecentCalls(this.db, recent);
      // Counted once written: figures kept for the next flush are not counted twice.
      for (const f of figures) this.addToTotals(f);
    } catch (error) {
      // Kept for the next flush, within the bound; the requests' sample is let go.
      for (const f of figures) this.keep(f);
      this.recentDone.push(...recent.slice(0, MAX_FIGURES));
      this.log.error(
        { err: error, figures: figures.length },
        'gateway figures could not be written; kept for the next flush',
      );
      throw error;
    }
    try {
      await addRequests(this.db, requests);
    } catch (error) {
      this.droppedFigures += requests.length;
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
    total.computeUnits += figures.computeUnits;
    total.rpcErrors += figures.rpcErrors;
    total.refused += figures.refused;
    total.upstreamErrors += figures.upstreamErrors;
    total.latencySumMs += figures.latencySumMs;
    merge(total.latency, figures.latency);
  }

  private keep(figures: Figures): void {
    const group = this.groupOf(figures, figures.hour);
    const known = group.get(figures.method);
    if (!known) {
      if (this.figureCount < MAX_FIGURES) {
        group.set(figures.method, figures);
        this.figureCount += 1;
      } else this.droppedFigures += 1;
      return;
    }
    known.calls += figures.calls;
    known.computeUnits += figures.computeUnits;
    known.rpcErrors += figures.rpcErrors;
    known.refused += figures.refused;
    known.upstreamErrors += figures.upstreamErrors;
    merge(known.latency, figures.latency);
    known.latencySumMs += figures.latencySumMs;
  }

  /** Every figure held, once (invalid spellings share theirs). */
  private allFigures(): Figures[] {
    const all = new Set<Figures>();
    for (const networks of this.figures.values()) {
      for (const hours of networks.values()) {
        for (const group of hours.values()) for (const figures of group.values()) all.add(figures);
      }
    }
    return [...all];
  }

  /** Flushes every interval, also while off (nothing to write then costs nothing): it may be switched on. */
  start(intervalMs: number): void {
    this.loop.start(intervalMs);
  }

  /** Stops the timer and writes what is left (at shutdown). */
  async stop(): Promise<void> {
    await this.loop.stop().catch(() => {});
  }
}
