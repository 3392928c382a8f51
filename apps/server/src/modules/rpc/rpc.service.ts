import { randomBytes } from 'node:crypto';
import { RPC_NETWORKS, RpcErrorCodes, RpcMessages, type RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import { formatEther } from 'viem';
import { type Config, isProduction } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { addressKey, type RateLimiter } from '../../http/rate-limit.ts';
import { GatewayInsight } from '../insight/index.ts';
import { KeyCache, KeyLimits, type KeyRequest, keyRefusal } from '../keys/index.ts';
import { AnswerMemory } from './answer-memory.ts';
import { AnvilNodes } from './anvil-nodes.ts';
import { checkFundRequest, FaucetRefusal, LocalFaucet } from './faucet.ts';
import { FilterIds } from './filter-ids.ts';
import type { NodeFigures } from './fleet-figures.ts';
import { MethodPolicy } from './method-policy.ts';
import { NetworkGateway } from './network-gateway.ts';
import { NetworkStatus } from './network-status.ts';
import { UpstreamError } from './node-answer.ts';
import { RpcPipeline } from './pipeline.ts';
import { PriceBook } from './price-book.ts';
import type { CacheFigures } from './response-cache.ts';
import { type Caller, type GatewayAccounts, RpcRefusal } from './rpc-request.ts';
import { SpendingGuard } from './spending-guard.ts';
import { StatusHours } from './status-hours.ts';
import { type SubscriptionFigures, SubscriptionHub } from './subscription-hub.ts';
import { NetworkUpstreams } from './upstreams.ts';
import { UsageMeter } from './usage-meter.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Blocks below the head before the cache keeps an answer at a block (RPC_CACHE_DEPTHS overrides):
 * Ethereum finalizes after two epochs of 32 slots; BNB Chain's fast finality within a few blocks (15
 * is what exchanges wait); Polygon PoS has reorganised over 100 blocks before its milestones; NEAR,
 * under Aurora, finalizes in about two. Metabit publishes no figure: Ethereum's.
 */
const CACHE_DEPTHS: Record<RpcNetwork['path'], number> = {
  'ethereum/mainnet': 64,
  'ethereum/sepolia': 64,
  'bsc/mainnet': 15,
  'bsc/testnet': 15,
  'polygon/mainnet': 256,
  'polygon/amoy': 256,
  'metabit/mainnet': 64,
  'metabit/testnet': 64,
  'aurora/mainnet': 10,
  'aurora/testnet': 10,
};

/** How often each process reads the prices, and the spending caps with the month's spend across the processes. */
const PRICES_READ_MS = 5_000;
const SPENDING_SYNC_MS = 1_000;

/** How often each process logs its cache figures. */
const CACHE_LOG_MS = 10 * 60_000;

/** Keys read for a JWT from an address refused for its failed checks, per minute. */
const TOKEN_READS_PER_MINUTE_WHILE_FAILING = 10;

/** Addresses refused for failed key checks are forgotten past this many, oldest first. */
const MAX_REFUSED_ADDRESSES = 10_000;

/**
 * The RPC gateway (ARCHITECTURE §5): checks the key against the cached hash, refuses inactive and
 * deleted keys, suspended accounts and the methods its policy keeps back, forwards to the
 * network's upstreams and meters the calls.
 */
export class RpcGateway {
  readonly keys: KeyCache;
  readonly meter: UsageMeter;
  /** Per-method figures and the request log (the customer's Analytics and Requests pages). */
  readonly insight: GatewayInsight;
  /** The one pipeline every request runs, over HTTP and WebSocket alike. */
  readonly pipeline: RpcPipeline;
  /** Node answers held whole at once across the process (RPC_ANSWER_MEMORY_MB). */
  readonly answerMemory: AnswerMemory;
  /** Each network's calls per hour and those no node answered (the Status page). */
  readonly statusHours: StatusHours;
  /** What customers see of the networks (GET /api/v1.0/rpc/status). */
  readonly status: NetworkStatus;
  /** What calls cost (GET /api/v1.0/rpc/pricing), read from the database every few seconds. */
  readonly prices: PriceBook;
  /** The accounts' monthly spending caps. */
  readonly spending: SpendingGuard;
  private readonly anvil: AnvilNodes;
  private readonly networks = new Map<string, NetworkGateway>();
  private readonly hubs = new Map<string, SubscriptionHub>();
  private readonly faucet = new LocalFaucet();
  /** Client addresses past their failed key checks, until when (ms). */
  private readonly refusedAddresses = new Map<string, number>();
  constructor(
    db: Db,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    /** Shared with the console's limits: Redis across processes when REDIS_URL is set. */
    private readonly limiter: RateLimiter,
    accounts: GatewayAccounts,
    /**
     * Signs the filter ids the gateway hands out; the same in every process (derived from
     * AUTH_HMAC_SECRET), so that any of them knows a filter's account.
     */
    filterIdKey: Buffer = randomBytes(32),
  ) {
    this.keys = new KeyCache(db, accounts.enabled);
    this.meter = new UsageMeter(db, log, accounts.refreshBillingStatus);
    this.prices = new PriceBook(db, log);
    this.spending = new SpendingGuard(db, limiter, accounts.spendingCaps, log);
    this.insight = new GatewayInsight(db, log, config.RPC_INSIGHT);
    const limits = new KeyLimits(limiter, {
      perSecond: config.RPC_RATE_LIMIT_PER_SECOND,
      perDay: config.RPC_RATE_LIMIT_PER_DAY,
    });
    this.anvil = new AnvilNodes(config.dataDir, log);
    this.answerMemory = new AnswerMemory(
      Math.floor(config.RPC_ANSWER_MEMORY_MB * 1024 * 1024),
      config.RPC_MAX_ANSWER_BYTES,
    );
    const filterIds = new FilterIds(filterIdKey);
    this.statusHours = new StatusHours(db, log);
    for (const network of RPC_NETWORKS) {
      const configured = config.rpcUpstreams[network.path];
      // The embedded default's local node holds every block: an archive node.
      const entries = configured
        ? async () => configured
        : isProduction(config)
          ? async () => {
              throw new Error('no upstream is configured (RPC_UPSTREAMS)');
            }
          : async () => [{ url: await this.anvil.urlFor(network), archive: true, weight: 1, maxInFlight: 0 }];
      const upstreams = new NetworkUpstreams(network, entries, {
        timeoutMs: config.RPC_TIMEOUT_MS,
        firstCoolDownMs: config.RPC_HEALTH_CHECK_SECONDS * 1000,
        headPollMs: config.RPC_HEAD_POLL_MS,
        maxLagBlocks: config.rpcMaxLagBlocks[network.path] ?? config.RPC_MAX_LAG_BLOCKS,
        hedgeMs: config.RPC_HEDGE_MS,
        broadcastSends: config.RPC_BROADCAST_SENDS,
        minesOnDemand: !configured,
        keySecret: filterIdKey,
        log,
      });
      const settings = {
        cacheBytes: Math.floor(config.RPC_CACHE_MB * 1024 * 1024),
        depth: config.rpcCacheDepths[network.path] ?? CACHE_DEPTHS[network.path],
        headPollMs: config.RPC_HEAD_POLL_MS,
        logsMaxRange: config.RPC_GET_LOGS_MAX_RANGE,
        logsMaxResults: config.RPC_GET_LOGS_MAX_RESULTS,
        maxAnswerBytes: config.RPC_MAX_ANSWER_BYTES,
        timeoutMs: config.RPC_TIMEOUT_MS,
      };
      const gateway = new NetworkGateway(network, upstreams, settings, this.answerMemory, filterIds, log);
      this.networks.set(network.path, gateway);
      // Subscriptions go to the ws(s) upstreams; the embedded default's local node serves both on one port.
      const sockets = config.rpcSocketUpstreams[network.path] ?? [];
      const socketUrls = configured
        ? async () => sockets
        : isProduction(config)
          ? async () => []
          : async () => [(await this.anvil.urlFor(network)).replace(/^http/, 'ws')];
      const hub = new SubscriptionHub(
        network,
        socketUrls,
        (payload) => gateway.call(payload),
        config.RPC_TIMEOUT_MS,
        log,
      );
      this.hubs.set(network.path, hub);
    }
    this.pipeline = new RpcPipeline({
      policy: new MethodPolicy(config.rpcBlockedMethods, config.rpcAllowedMethods),
      limits,
      meter: this.meter,
      prices: this.prices,
      spending: this.spending,
      insight: this.insight,
      networks: this.networks,
      hours: this.statusHours,
      maxBatch: config.RPC_MAX_BATCH,
    });
    this.status = new NetworkStatus(db, this.networks, (path) => Boolean(config.rpcUpstreams[path]));
  }

  start(): void {
    this.meter.start(this.config.USAGE_FLUSH_SECONDS * 1000);
    this.insight.start(this.config.USAGE_FLUSH_SECONDS * 1000);
    this.statusHours.start(this.config.USAGE_FLUSH_SECONDS * 1000);
    this.prices.start(PRICES_READ_MS);
    this.spending.start(SPENDING_SYNC_MS);
    this.cacheLog = setInterval(() => this.logCacheFigures(), CACHE_LOG_MS);
    this.cacheLog.unref();
  }

  private cacheLog: NodeJS.Timeout | undefined;
  private loggedLookups = 0;

  /** Each process's cache figures in its log, when it was used since the last line (several processes on PostgreSQL). */
  private logCacheFigures(): void {
    const figures = this.cacheFigures().filter((f) => f.hits + f.misses > 0);
    const lookups = figures.reduce((sum, f) => sum + f.hits + f.misses, 0);
    if (lookups === this.loggedLookups) return;
    this.loggedLookups = lookups;
    this.log.info({ networks: figures }, 'RPC cache');
  }

  /**
   * Who is calling: a live, unexpired key of an account that is not suspended, with its secret (or
   * its JWT) and from an origin and address its rules allow (keyRefusal). A client address that
   * keeps sending wrong keys or tokens (each unknown id costs a database read) is refused for the
   * rest of the minute, but only its failing checks and its reads of ids not yet cached: a key or
   * token that checks out from the cache is served, so that whoever shares the address (a carrier
   * NAT, a /64) cannot cut it off. A token's signature is checked before its address's failures are
   * (a verification costs tens of microseconds, which the address's key reads would cost anyway).
   */
  async authorize(keyId: string | undefined, request: KeyRequest): Promise<Caller> {
    if (!keyId || (request.key === undefined && request.authorization === undefined)) {
      throw new RpcRefusal(401, RpcErrorCodes.unauthorized, RpcMessages.missingKey);
    }
    // Worked out only when a check fails or a read is needed: a key served from the cache never needs it.
    let worked: string | undefined;
    const address = () => {
      worked ??= addressKey(request.ip);
      return worked;
    };
    const id = UUID.test(keyId) ? keyId.toLowerCase() : null;
    let state = id === null ? null : this.keys.cached(id);
    if (state === undefined && id !== null) {
      // A token cannot be checked before its key is read: from an address past its failures, a
      // few such reads a minute are allowed (a real key is then cached, and served from then on).
      if (request.key === undefined) await this.refuseTokenReadIfFailing(address());
      else this.refuseIfFailing(address());
      state = await this.keys.get(id);
    }
    if (!state || id === null) {
      this.refuseIfFailing(address());
      await this.countFailedCheck(address());
      throw new RpcRefusal(401, RpcErrorCodes.unauthorized, RpcMessages.wrongKey);
    }
    // A token whose signature verifies is served whatever its address's failures (its neighbours
    // behind one NAT or /64 may be the ones failing); a failing one from such an address is refused.
    const refused = keyRefusal(state, request);
    if (refused) {
      if (refused.wrongCredential) {
        this.refuseIfFailing(address());
        await this.countFailedCheck(address());
      }
      throw new RpcRefusal(refused.httpStatus, refused.code, refused.message);
    }
    return { accountId: state.accountId, apiKeyId: id, key: state };
  }

  private async refuseTokenReadIfFailing(address: string): Promise<void> {
    if (!this.refusedAddresses.has(address)) return;
    try {
      this.refuseIfFailing(address);
    } catch (refusal) {
      const { allowed } = await this.limiter.hit(`rpc-token-reads:${address}`, {
        limit: TOKEN_READS_PER_MINUTE_WHILE_FAILING,
        windowSeconds: 60,
      });
      if (!allowed) throw refusal;
    }
  }

  private refuseIfFailing(address: string): void {
    const until = this.refusedAddresses.get(address);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) this.refusedAddresses.delete(address);
    else throw this.tooManyFailures(Math.ceil(left / 1000));
  }

  /** RPC_FAILED_KEY_CHECKS_PER_MINUTE per address (by its /64 for IPv6), shared by the processes through the limiter. */
  private async countFailedCheck(address: string): Promise<void> {
    const perMinute = this.config.RPC_FAILED_KEY_CHECKS_PER_MINUTE;
    if (perMinute <= 0) return;
    const { allowed, retryAfterSeconds } = await this.limiter.hit(`rpc-key-failures:${address}`, {
      limit: perMinute,
      windowSeconds: 60,
    });
    if (allowed) return;
    if (this.refusedAddresses.size >= MAX_REFUSED_ADDRESSES) {
      const oldest = this.refusedAddresses.keys().next().value;
      if (oldest !== undefined) this.refusedAddresses.delete(oldest);
    }
    this.refusedAddresses.set(address, Date.now() + retryAfterSeconds * 1000);
    throw this.tooManyFailures(retryAfterSeconds);
  }

  private tooManyFailures(retryAfterSeconds: number): RpcRefusal {
    return new RpcRefusal(429, RpcErrorCodes.rateLimited, RpcMessages.tooManyWrongKeys, null, {
      'retry-after': String(retryAfterSeconds),
    });
  }

  /**
   * A JSON-RPC call (single or batch) from the server itself, e.g. the forwarding engine, through the
   * same upstreams with their failover; not metered. Answers the parsed JSON.
   */
  async call(path: string, payload: unknown): Promise<unknown> {
    const gateway = this.networks.get(path);
    if (!gateway) throw new UpstreamError(`unknown network ${path}`, false);
    return gateway.call(payload);
  }

  /** A network's subscriptions (WebSocket endpoints). */
  subscriptions(path: string): SubscriptionHub | undefined {
    return this.hubs.get(path);
  }

  /** Each network's subscriptions, where any were made (`npm run admin -- rpc subscriptions`). */
  subscriptionFigures(): SubscriptionFigures[] {
    return [...this.hubs.values()].flatMap((hub) => hub.figures() ?? []);
  }

  /**
   * Each started network's nodes with their state and figures, and its retries and hedges
   * (`npm run admin -- rpc upstreams`, the operator's metrics).
   */
  upstreamFigures(): Array<{ network: string; retries: number; hedges: number; nodes: NodeFigures[] }> {
    return [...this.networks.values()]
      .filter((gateway) => gateway.upstreams.started)
      .map(({ network, upstreams }) => ({
        network: network.path,
        retries: upstreams.retries,
        hedges: upstreams.hedges,
        nodes: upstreams.figures(),
      }));
  }

  /** Each network's response cache: hits, misses, size (`npm run admin -- rpc cache`). */
  cacheFigures(): CacheFigures[] {
    return [...this.networks.values()].flatMap((gateway) => (gateway.cache ? [gateway.cache.figures()] : []));
  }

  /** Whether a network can be reached: configured upstreams, or a local node outside production. */
  isAvailable(path: string): boolean {
    return Boolean(this.config.rpcUpstreams[path]) || !isProduction(this.config);
  }

  /** Whether a network's upstream is a local node of the embedded default rather than a configured one. */
  usesLocalNode(path: string): boolean {
    return !this.config.rpcUpstreams[path] && !isProduction(this.config);
  }

  /**
   * The operator's faucet (`npm run admin -- chain fund`): sends test coins to an address on a
   * network's local node, starting the node if needed. Refused for networks served by real nodes.
   */
  async fundLocal(path: string | undefined, address: string | undefined, amount: string | undefined) {
    const network = RPC_NETWORKS.find((n) => n.path === path);
    if (!network) {
      throw new FaucetRefusal(`--network must be a network path: ${RPC_NETWORKS.map((n) => n.path).join(', ')}`);
    }
    const [to, wei] = checkFundRequest(address, amount);
    if (!this.usesLocalNode(network.path)) {
      throw new FaucetRefusal(
        `${network.path} is served by real nodes (RPC_UPSTREAMS or production): chain fund only credits the embedded default's local nodes`,
      );
    }
    const { hash, balance } = await this.faucet.send(await this.anvil.urlFor(network), network.chainId, to, wei);
    return {
      network: network.path,
      address: to,
      amount: formatEther(wei),
      transactionHash: hash,
      balance: formatEther(balance),
    };
  }

  /** The local node of a network, when the embedded default has started one (tests, the bench). */
  localNodeUrl(path: string): Promise<string | undefined> {
    return this.anvil.runningUrl(path);
  }

  /** At shutdown: write the counted usage, close the connections, stop the local nodes. */
  async close(): Promise<void> {
    clearInterval(this.cacheLog);
    this.keys.stop();
    this.prices.stop();
    await Promise.all([this.meter.stop(), this.insight.stop(), this.statusHours.stop(), this.spending.stop()]);
    for (const gateway of this.networks.values()) gateway.close();
    for (const hub of this.hubs.values()) hub.close();
    await Promise.all([...this.networks.values()].map((n) => n.upstreams.close()));
    await this.anvil.stopAll();
  }
}
