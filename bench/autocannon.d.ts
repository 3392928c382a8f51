/** The part of autocannon's programmatic API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds a request may take before it counts as a timeout. */
    timeout?: number;
    /** Requests sent in turn; what they leave out is taken from the options above. */
    requests?: Array<{
      /** Called before each request on a connection; what it answers is sent. `context` is the connection's own. */
      setupRequest?: (
        request: { body?: string | Buffer },
        context: Record<string, unknown>,
      ) => { body?: string | Buffer };
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }>;
  }

  export interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }

  export interface Result {
    /** Seconds. */
    duration: number;
    start: Date;
    finish: Date;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
  }

  /** Emits 'response' (client, statusCode, bytes, responseTimeMs) for every answer. */
  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  export default function autocannon(options: Options): Instance;
}
