import type { RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type Dispatcher, Pool } from 'undici';

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

  /** Sends a JSON-RPC body; the answer's body must be consumed or streamed by the caller. */
  async send(body: string): Promise<Dispatcher.ResponseData> {
    const upstreams = await this.resolve();
    const ordered = [...upstreams.filter((u) => u.healthy), ...upstreams.filter((u) => !u.healthy)];
    let timedOut = false;
    for (const upstream of ordered) {
      try {
        const answer = await upstream.pool.request({
          path: upstream.path,
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body,
          headersTimeout: this.options.timeoutMs,
          bodyTimeout: this.options.timeoutMs,
        });
        if (answer.statusCode >= 500 || answer.statusCode === 429) {
          await answer.body.dump();
          this.markDown(upstream, `HTTP ${answer.statusCode}`);
          continue;
        }
        upstream.healthy = true;
        return answer;
      } catch (error) {
        timedOut ||= isTimeout(error);
        this.markDown(upstream, (error as Error).message);
      }
    }
    throw new UpstreamError(`${this.network.name}: no upstream answered`, timedOut);
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
        const answer = await upstream.pool.request({
          path: upstream.path,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: CHAIN_ID_CALL,
          headersTimeout: this.options.timeoutMs,
          bodyTimeout: this.options.timeoutMs,
        });
        const result = (await answer.body.json()) as { result?: string };
        if (answer.statusCode === 200 && result.result && Number(result.result) === this.network.chainId) {
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
