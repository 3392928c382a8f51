import autocannon from 'autocannon';

/** What every benchmark request asks: cheap for the node, so the path around it is what is measured. */
export const RPC_BODY = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';

/** A batch of `n` such calls, ids 1..n: one HTTP request the gateway checks and meters as n calls. */
export const rpcBatch = (n: number) =>
  `[${Array.from({ length: n }, (_, i) => `{"jsonrpc":"2.0","id":${i + 1},"method":"eth_blockNumber","params":[]}`).join(',')}]`;

/** The hex digits of a call's number, at the end of its address. */
const HEX = Buffer.from('0123456789abcdef');
const NUMBER_DIGITS = 8;
/** The last call number given out in this process, to whichever body: no address is asked twice. */
let lastNumber = 0;

/**
 * A body of `calls` eth_getBalance calls at "latest" (ids 1..calls, a batch when more than one), each
 * of an address never asked before: the traffic customers send, which the gateway can neither cache
 * (it keeps nothing at "latest") nor merge (no two calls are alike). Each body is a copy of one
 * prepared body with its addresses' last digits replaced by a counter, so that the load generator's
 * own CPU stays out of the way: about 0.2 µs a single call and 4 µs a batch of 50, against 0.5 and
 * 22 µs to build the string and encode it, and 0.8 and 6 µs to encode one from a ring of prepared
 * strings (65 536 batches of 50 would also hold 350 MB). An address comes back only after 2^32
 * calls, far more than a run makes; and since nothing at "latest" is kept, a repeat could only be
 * merged with a twin still in flight.
 */
export function distinctBalanceCalls(calls: number): () => Buffer {
  const address = `0x${'0'.repeat(40)}`;
  const text = Array.from(
    { length: calls },
    (_, i) => `{"jsonrpc":"2.0","id":${i + 1},"method":"eth_getBalance","params":["${address}","latest"]}`,
  ).join(',');
  const prepared = Buffer.from(calls === 1 ? text : `[${text}]`);
  const ends: number[] = [];
  for (let at = prepared.indexOf(address); at >= 0; at = prepared.indexOf(address, at + 1)) {
    ends.push(at + address.length - 1);
  }
  return () => {
    const body = Buffer.allocUnsafe(prepared.length);
    prepared.copy(body);
    for (const end of ends) {
      let number = ++lastNumber >>> 0;
      for (let digit = 0; digit < NUMBER_DIGITS; digit++, number >>>= 4) {
        body[end - digit] = HEX[number & 15] as number;
      }
    }
    return body;
  };
}

export interface Target {
  name: string;
  url: string;
  /** Sent with every request besides the content type, e.g. the Origin a locked-down key needs. */
  headers?: Record<string, string>;
  /** CPU seconds used so far by the process(es) that answer this target (the table's server CPU). */
  cpuSeconds?: () => number | undefined;
}

/** What is sent: the body, and how many JSON-RPC calls it holds. */
export interface Load {
  body: string;
  calls: number;
  connections: number;
  /** A body for each request instead of `body` (a mixed workload, distinct calls), and each answer to it. */
  next?: () => string | Buffer;
  answered?: (body: string, status: number, answer: string, sentAt: number) => void;
}

export interface Measurement {
  target: string;
  seconds: number;
  /** 2xx answers carrying a JSON-RPC result. */
  answers: number;
  requestsPerSecond: number;
  /** Milliseconds, from every answer's own response time (autocannon's histogram keeps whole ms only). */
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** 2xx answers without a JSON-RPC result. */
  withoutResult: number;
  statusCodes: Record<string, number>;
  connections: number;
  /** JSON-RPC calls per request (1, or the size of a batch). */
  calls: number;
  /**
   * Share of one core used meanwhile by the load generator (this process) and by the console server
   * process (which idles, bar its timers, while another target is measured).
   */
  clientCpu: number;
  serverCpu?: number;
}

export const failures = (m: Measurement) => m.errors + m.non2xx + m.withoutResult;

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

/** What a caller of measure() may watch and end: each 2xx answer's time, and an earlier stop. */
export interface Watch {
  /** Called with performance.now() as each 2xx answer arrives. */
  onAnswer?: (at: number) => void;
  /**
   * Called with each 2xx answer's body, without the request (cheaper than the load's `answered`): a
   * check of what came back, run in the load generator, so a substring test rather than a parse.
   */
  onBody?: (answer: string) => void;
  /** The run stops when this settles (or after its `seconds`, whichever comes first). */
  stopWhen?: Promise<unknown>;
}

/** Keeps `connections` requests in flight for `seconds`, one at a time per connection (no pipelining). */
export async function measure(
  target: Target,
  seconds: number,
  { body, calls, connections, next, answered }: Load,
  { onAnswer, onBody, stopWhen }: Watch = {},
): Promise<Measurement> {
  const serverCpuSeconds = target.cpuSeconds ?? (() => undefined);
  const clientBefore = process.cpuUsage();
  const serverBefore = serverCpuSeconds();
  let times = new Float64Array(1 << 16);
  let count = 0;
  let withoutResult = 0;
  const run = autocannon({
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        ...(next
          ? {
              // autocannon hands setupRequest a fresh object for each request: it may be written.
              setupRequest: (request: { body?: string | Buffer }, context: Record<string, unknown>) => {
                request.body = next();
                if (answered) {
                  context.body = request.body;
                  context.sentAt = Date.now();
                }
                return request;
              },
            }
          : {}),
        onResponse: (status, answer, context) => {
          if (status >= 200 && status < 300) {
            if (!answer.includes('"result"')) withoutResult++;
            onBody?.(answer);
          }
          answered?.(next ? String(context.body) : body, status, answer, (context.sentAt as number | undefined) ?? 0);
        },
      },
    ],
  });
  run.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status < 200 || status >= 300) return;
    onAnswer?.(performance.now());
    if (count === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[count++] = ms;
  });
  const stop = () => run.stop();
  stopWhen?.then(stop, stop);
  const result = await run;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = serverCpuSeconds();
  const sorted = times.subarray(0, count).sort();
  const elapsed = (result.finish.getTime() - result.start.getTime()) / 1000 || result.duration;
  const statusCodes: Record<string, number> = {};
  for (const [code, { count: n }] of Object.entries(result.statusCodeStats)) statusCodes[code] = n;
  return {
    target: target.name,
    seconds: elapsed,
    answers: result['2xx'] - withoutResult,
    requestsPerSecond: result['2xx'] / elapsed,
    mean: sorted.reduce((sum, t) => sum + t, 0) / count,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    withoutResult,
    statusCodes,
    connections,
    calls,
    clientCpu: (client.user + client.system) / 1e6 / elapsed,
    serverCpu:
      serverBefore === undefined || serverAfter === undefined ? undefined : (serverAfter - serverBefore) / elapsed,
  };
}
