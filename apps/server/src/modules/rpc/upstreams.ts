import { Readable } from 'node:stream';
import type { RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type Dispatcher, Pool } from 'undici';

/** Node answers up to this size are read whole; larger ones, or of unknown length, are streamed. */
export const BUFFERED_ANSWER_MAX_BYTES = 64 * 1024;

/** What a node answered: its body read whole, or a stream to pass on as it comes (and its length). */
export type NodeAnswer = { status: number; contentType: string } & (
  | { body: Buffer }
  | { stream: Readable; length: string | undefined }
);

/** A node's answer body, whole (a streamed one read to its end). */
export async function wholeBody(answer: NodeAnswer): Promise<Buffer> {
  return (await boundedBody(answer, Number.POSITIVE_INFINITY)) as Buffer;
}

/** A node's answer body, whole, or null once it is found larger than `maxBytes` (a stream is then dropped). */
export async function boundedBody(answer: NodeAnswer, maxBytes: number): Promise<Buffer | null> {
  if ('body' in answer) return answer.body.length > maxBytes ? null : answer.body;
  const { stream } = answer;
  const tooLarge = () => {
    stream.destroy();
    return null;
  };
  if (Number(answer.length) > maxBytes) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** A node that answers 5xx or 429 is marked down and the next one tried. */
const failing = (status: number) => status >= 500 || status === 429;

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

export interface UpstreamOptions {
  timeoutMs: number;
  healthCheckMs: number;
  log: FastifyBaseLogger;
}

const UPSTREAM_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

const CHAIN_ID_CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';

/** One upstream node: a pool of kept-alive connections and whether it answers. */
class Upstream {
  readonly pool: Pool;
  readonly path: string;
  healthy = true;
  downSince = 0;

  constructor(readonly url: URL) {
    this.pool = new Pool(url.origin, { connections: 256, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 });
    this.path = `${url.pathname}${url.search}`;
  }

  /** The address without credentials a node provider may put in its path or query. */
  get label(): string {
    return this.url.origin;
  }
}

const isTimeout = (error: unknown) =>
  error instanceof Error && 'code' in error && /TIMEOUT/.test(String((error as { code: unknown }).code));

/**
 * A network's upstream nodes, in order of preference. A request goes to the first healthy node;
 * a connection error, a timeout or a 5xx/429 answer marks it down and the next one is tried. Nodes
 * that are down are checked with eth_chainId every few seconds and come back when they answer
 * with the network's chain id. When every node is down they are all still tried, in order.
 */
export class NetworkUpstreams {
  private upstreams: Upstream[] | undefined;
  private resolving: Promise<Upstream[]> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly network: RpcNetwork,
    private readonly urls: () => Promise<string[]>,
    private readonly options: UpstreamOptions,
  ) {}

  private async resolve(): Promise<Upstream[]> {
    if (this.upstreams) return this.upstreams;
    this.resolving ??= this.urls().then((urls) => {
      this.upstreams = urls.map((u) => new Upstream(new URL(u)));
      this.timer = setInterval(() => void this.checkDown(), this.options.healthCheckMs);
      this.timer.unref();
      return this.upstreams;
    });
    try {
      return await this.resolving;
    } catch (error) {
      this.resolving = undefined;
      throw new UpstreamError(`${this.network.name}: ${(error as Error).message}`, false);
    }
  }

  /**
   * Sends a JSON-RPC body to the first node that answers; a streamed answer must be read or
   * destroyed by the caller.
   */
  send(body: string): Promise<NodeAnswer> {
    const { upstreams } = this;
    if (!upstreams) return this.resolve().then(() => this.send(body));
    // The first node answers nearly every request: the others are ordered only when it is down.
    const [first] = upstreams;
    if (!first?.healthy) return this.sendToOthers(upstreams, body, false);
    return this.ask(first, body).catch((error: unknown) => {
      this.markDown(first, (error as Error).message);
      if (upstreams.length === 1)
        throw new UpstreamError(`${this.network.name}: no upstream answered`, isTimeout(error));
      this.failovers += 1;
      return this.sendToOthers(upstreams.slice(1), body, isTimeout(error));
    });
  }

  /** The healthy nodes in order, then the others, until one answers. */
  private async sendToOthers(upstreams: Upstream[], body: string, timedOutBefore: boolean): Promise<NodeAnswer> {
    const ordered = [...upstreams.filter((u) => u.healthy), ...upstreams.filter((u) => !u.healthy)];
    let timedOut = timedOutBefore;
    for (const [i, upstream] of ordered.entries()) {
      try {
        const answer = await this.ask(upstream, body);
        upstream.healthy = true;
        return answer;
      } catch (error) {
        timedOut ||= isTimeout(error);
        this.markDown(upstream, (error as Error).message);
        if (i < ordered.length - 1) this.failovers += 1;
      }
    }
    throw new UpstreamError(`${this.network.name}: no upstream answered`, timedOut);
  }

  /**
   * One node's answer, through undici's dispatch(): no promise or stream per request for the
   * answers read whole, which are nearly all of them.
   */
  private ask(upstream: Upstream, body: string): Promise<NodeAnswer> {
    const timeoutMs = this.options.timeoutMs;
    return new Promise((resolve, reject) => {
      let status = 0;
      let contentType = 'application/json';
      const chunks: Buffer[] = [];
      let size = 0;
      let stream: Readable | undefined;
      let ended = false;
      let abort: (error: Error) => void = () => {};
      let resume: () => void = () => {};
      // undici's own handler style (its core calls these): the newer one is adapted per request,
      // which parses every answer's headers into an object.
      const handler = {
        onConnect(abortRequest: (error: Error) => void) {
          abort = abortRequest;
        },
        onHeaders(statusCode: number, rawHeaders: Buffer[], resumeReading: () => void): boolean {
          status = statusCode;
          resume = resumeReading;
          let length: string | undefined;
          for (let i = 0; i < rawHeaders.length; i += 2) {
            const name = String(rawHeaders[i]).toLowerCase();
            if (name === 'content-length') length = String(rawHeaders[i + 1]);
            else if (name === 'content-type') contentType = String(rawHeaders[i + 1]);
          }
          if (failing(status) || (length !== undefined && Number(length) <= BUFFERED_ANSWER_MAX_BYTES)) return true;
          stream = new Readable({
            read: () => resume(),
            destroy: (error, done) => {
              // The caller went away before the end: the node's answer is not read further.
              if (!ended) abort(error ?? new Error('answer no longer wanted'));
              done(error);
            },
          });
          resolve({ status, contentType, stream, length });
          return true;
        },
        onData(chunk: Buffer): boolean {
          if (stream) return stream.push(chunk);
          if (!failing(status)) {
            chunks.push(chunk);
            size += chunk.length;
          }
          return true;
        },
        onComplete() {
          ended = true;
          if (stream) stream.push(null);
          else if (failing(status)) reject(new Error(`HTTP ${status}`));
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
          else reject(error);
        },
      };
      upstream.pool.dispatch(
        {
          path: upstream.path,
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

  /** Calls sent on to the next node after one failed, since start (the operator's metrics). */
  failovers = 0;

  /** Each node of the network and whether it answers (none before the network's first use). */
  health(): Array<{ upstream: string; up: boolean }> {
    return (this.upstreams ?? []).map((u) => ({ upstream: u.label, up: u.healthy }));
  }

  private markDown(upstream: Upstream, reason: string): void {
    if (!upstream.healthy) return;
    upstream.healthy = false;
    upstream.downSince = Date.now();
    this.options.log.warn({ network: this.network.path, upstream: upstream.label, reason }, 'RPC upstream down');
  }

  private async checkDown(): Promise<void> {
    for (const upstream of this.upstreams ?? []) {
      if (upstream.healthy) continue;
      try {
        const answer = await this.ask(upstream, CHAIN_ID_CALL);
        const result = JSON.parse((await wholeBody(answer)).toString('utf8')) as { result?: string };
        if (answer.status === 200 && result.result && Number(result.result) === this.network.chainId) {
          upstream.healthy = true;
          this.options.log.info({ network: this.network.path, upstream: upstream.label }, 'RPC upstream back');
        }
      } catch {
        // still down
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    // Fastify has finished the requests in flight by now; idle kept-alive sockets just go.
    await Promise.all((this.upstreams ?? []).map((u) => u.pool.destroy()));
  }
}
