import type { MethodRun } from './method-run.ts';
import { methodName, type Observer } from './observed-request.ts';
import type { LoggedRequest } from './request-log.store.ts';

/** Each account's failed requests kept per flush; the rest are counted in the figures only. */
export const FAILURES_LOGGED_PER_FLUSH = 100;
/** Each account's successful requests kept per flush, chosen at random among them. */
export const SUCCESSES_LOGGED_PER_FLUSH = 10;
/** Requests one process keeps between flushes (and lets go while the database is away). */
const MAX_LOGGED = 50_000;
const MAX_ORIGIN = 200;

/** Sample slots that are not a successful request's place. */
const NOT_KEPT = -1;
const FAILED_SLOT = -2;

/** What a request came to. */
export interface Outcome {
  methods: readonly MethodRun[];
  httpStatus: number;
  latencyMs: number;
  errorCode: number | null;
  /** The refusal's or the node's first error message, for a failed request. */
  errorMessage: string | undefined;
  requestChars: number | undefined;
  at: number;
}

interface AccountSample {
  successesSeen: number;
  successes: LoggedRequest[];
  failures: number;
}

/**
 * The request log's sample between two flushes: every failed request of an account up to a bound,
 * and a few successful ones chosen at random (reservoir sampling). A request's entry is built only
 * when the sample keeps it.
 */
export class RequestSample {
  private samples = new Map<string, AccountSample>();
  private failed: LoggedRequest[] = [];
  private logged = 0;
  /** Failed requests left out since start because a bound was reached. */
  dropped = 0;

  offer(seen: Observer, outcome: Outcome): void {
    const failed = outcome.httpStatus >= 400 || outcome.errorCode !== null;
    const slot = this.slotOf(seen.accountId, failed);
    if (slot === NOT_KEPT) return;
    const logged = entry(seen, outcome, failed);
    if (slot === FAILED_SLOT) this.failed.push(logged);
    else {
      const sample = this.samples.get(seen.accountId);
      if (sample) sample.successes[slot] = logged;
    }
  }

  /** The requests kept since the last call, and an empty sample. */
  take(): LoggedRequest[] {
    const requests = [...this.failed, ...[...this.samples.values()].flatMap((s) => s.successes)];
    this.samples = new Map();
    this.failed = [];
    this.logged = 0;
    return requests;
  }

  /**
   * Where a request goes in its account's sample: a failed one while the account's bound allows
   * (FAILED_SLOT), a successful one by reservoir sampling (its slot), or nowhere (NOT_KEPT).
   */
  private slotOf(accountId: string, failed: boolean): number {
    let sample = this.samples.get(accountId);
    if (!sample) {
      sample = { successesSeen: 0, successes: [], failures: 0 };
      this.samples.set(accountId, sample);
    }
    if (failed) {
      if (sample.failures >= FAILURES_LOGGED_PER_FLUSH || this.logged >= MAX_LOGGED) {
        this.dropped += 1;
        return NOT_KEPT;
      }
      sample.failures += 1;
      this.logged += 1;
      return FAILED_SLOT;
    }
    sample.successesSeen += 1;
    if (sample.successes.length < SUCCESSES_LOGGED_PER_FLUSH) {
      if (this.logged >= MAX_LOGGED) return NOT_KEPT;
      this.logged += 1;
      return sample.successes.length;
    }
    const slot = Math.floor(Math.random() * sample.successesSeen);
    return slot < SUCCESSES_LOGGED_PER_FLUSH ? slot : NOT_KEPT;
  }
}

function entry(seen: Observer, outcome: Outcome, failed: boolean): LoggedRequest {
  const methods = [...new Set(outcome.methods.map((run) => methodName(run.method)))].slice(0, 20);
  return {
    accountId: seen.accountId,
    apiKeyId: seen.apiKeyId,
    network: seen.network,
    methods,
    httpStatus: outcome.httpStatus,
    errorCode: outcome.errorCode,
    // Cut and cleaned where it was read (answer-errors.ts, loggedMessage).
    errorMessage: failed && outcome.errorMessage ? outcome.errorMessage : null,
    requestChars: outcome.requestChars ?? null,
    failed,
    latencyMs: Math.round(outcome.latencyMs * 100) / 100,
    clientIp: seen.clientIp,
    origin: seen.origin ? seen.origin.slice(0, MAX_ORIGIN) : null,
    at: new Date(outcome.at),
  };
}
