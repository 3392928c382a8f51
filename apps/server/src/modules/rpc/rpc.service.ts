import { RPC_NETWORKS, RpcErrorCodes, RpcMessages, type RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Dispatcher } from 'undici';
import { type Config, isProduction } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { apiKeyMatches } from '../keys/api-key-secret.ts';
import { AnvilNodes } from './anvil-nodes.ts';
import { KeyCache } from './key-cache.ts';
import { RpcRefusal } from './rpc-request.ts';
import { NetworkUpstreams, UpstreamError } from './upstreams.ts';
import { UsageMeter } from './usage-meter.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Caller {
  accountId: string;
  apiKeyId: string;
}

/**
 * The RPC gateway (ARCHITECTURE §5): checks the key against the cached hash, refuses inactive and
 * deleted keys and suspended accounts, forwards to the network's upstreams and meters the calls.
 */
export class RpcGateway {
  readonly keys: KeyCache;
  readonly meter: UsageMeter;
  private readonly anvil: AnvilNodes;
  private readonly networks = new Map<string, NetworkUpstreams>();
  constructor(
    db: Db,
    private readonly config: Config,
    log: FastifyBaseLogger,
    /** Shared with the console's limits: Redis across processes when REDIS_URL is set. */
    private readonly limiter: RateLimiter,
  ) {
    this.keys = new KeyCache(db);
    this.meter = new UsageMeter(db, log);
    this.anvil = new AnvilNodes(config.dataDir, log);
    for (const network of RPC_NETWORKS) {
      const configured = config.rpcUpstreams[network.path];
      const urls = configured
        ? async () => configured
        : isProduction(config)
          ? async () => {
              throw new Error('no upstream is configured (RPC_UPSTREAMS)');
            }
          : async () => [await this.anvil.urlFor(network)];
      this.networks.set(
        network.path,
        new NetworkUpstreams(network, urls, {
          timeoutMs: config.RPC_TIMEOUT_MS,
          healthCheckMs: config.RPC_HEALTH_CHECK_SECONDS * 1000,
          log,
        }),
      );
    }
  }

  start(): void {
    this.meter.start(this.config.USAGE_FLUSH_SECONDS * 1000);
  }

  /** Who is calling: a live key of an account that is not suspended. */
  async authorize(keyId: string | undefined, key: string | undefined): Promise<Caller> {
    if (!keyId || !key) throw new RpcRefusal(401, RpcErrorCodes.unauthorized, RpcMessages.missingKey);
    const state = UUID.test(keyId) ? await this.keys.get(keyId.toLowerCase()) : null;
    if (!state || !apiKeyMatches(key, state.keyHash)) {
      throw new RpcRefusal(401, RpcErrorCodes.unauthorized, RpcMessages.wrongKey);
    }
    if (state.deleted) throw new RpcRefusal(401, RpcErrorCodes.unauthorized, RpcMessages.deletedKey);
    if (!state.active) throw new RpcRefusal(403, RpcErrorCodes.forbidden, RpcMessages.inactiveKey);
    if (!state.accountEnabled) throw new RpcRefusal(403, RpcErrorCodes.forbidden, RpcMessages.suspended);
    return { accountId: state.accountId, apiKeyId: keyId.toLowerCase() };
  }

  /** The per-key limit (RPC_RATE_LIMIT_PER_SECOND; off at 0): HTTP 429 with Retry-After. */
  async limit(caller: Caller, id: string | number | null): Promise<void> {
    const perSecond = this.config.RPC_RATE_LIMIT_PER_SECOND;
    if (perSecond <= 0) return;
    const { allowed, retryAfterSeconds } = await this.limiter.hit(`rpc:${caller.apiKeyId}`, {
      limit: perSecond,
      windowSeconds: 1,
    });
    if (!allowed) {
      throw new RpcRefusal(429, RpcErrorCodes.rateLimited, RpcMessages.rateLimited(perSecond), id, {
        'retry-after': String(retryAfterSeconds),
      });
    }
  }

  /** Sends the body to the network's upstreams; the caller streams the answer back. */
  async forward(network: RpcNetwork, body: string, id: string | number | null): Promise<Dispatcher.ResponseData> {
    const upstreams = this.networks.get(network.path);
    if (!upstreams) throw new RpcRefusal(404, RpcErrorCodes.notFound, RpcMessages.unknownNetwork(network.path), id);
    try {
      return await upstreams.send(body);
    } catch (error) {
      if (error instanceof UpstreamError) {
        throw error.timedOut
          ? new RpcRefusal(504, RpcErrorCodes.upstream, RpcMessages.upstreamTimeout(network.name), id)
          : new RpcRefusal(502, RpcErrorCodes.upstream, RpcMessages.upstreamFailed(network.name), id);
      }
      throw error;
    }
  }

  /**
   * A JSON-RPC call (single or batch) from the server itself, e.g. the forwarding engine, through the
   * same upstreams with their failover; not metered. Answers the parsed JSON.
   */
  async call(path: string, payload: unknown): Promise<unknown> {
    const upstreams = this.networks.get(path);
    if (!upstreams) throw new UpstreamError(`unknown network ${path}`, false);
    const answer = await upstreams.send(JSON.stringify(payload));
    const text = await answer.body.text();
    if (answer.statusCode >= 400) throw new UpstreamError(`${path}: HTTP ${answer.statusCode}`, false);
    return JSON.parse(text);
  }

  /** Whether a network can be reached: configured upstreams, or a local node outside production. */
  isAvailable(path: string): boolean {
    return Boolean(this.config.rpcUpstreams[path]) || !isProduction(this.config);
  }

  /** Whether a network's upstream is a local node of the embedded default rather than a configured one. */
  usesLocalNode(path: string): boolean {
    return !this.config.rpcUpstreams[path] && !isProduction(this.config);
  }

  /** The local node of a network, when the embedded default has started one (tests, the bench). */
  localNodeUrl(path: string): Promise<string | undefined> {
    return this.anvil.runningUrl(path);
  }

  /** At shutdown: write the counted usage, close the connections, stop the local nodes. */
  async close(): Promise<void> {
    this.keys.stop();
    await this.meter.stop();
    await Promise.all([...this.networks.values()].map((n) => n.close()));
    await this.anvil.stopAll();
  }
}
