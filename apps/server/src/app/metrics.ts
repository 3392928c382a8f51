import { createHash, timingSafeEqual } from 'node:crypto';
import { RPC_NETWORKS } from '@ebs/contract';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Db } from '../db/database.ts';
import { type JobFigures, jobRuns } from '../jobs/scheduler.ts';
import { webhookFigures } from '../modules/forwarding/index.ts';
import { upperBoundOf } from '../modules/insight/index.ts';
import { ledgerTotals } from '../modules/ledger/index.ts';
import type { RpcGateway } from '../modules/rpc/index.ts';
import { registerMethodMetrics } from './method-metrics.ts';

/** What the metrics are read from, when Prometheus scrapes. */
export interface MetricSources {
  rpc: Pick<RpcGateway, 'cacheFigures' | 'subscriptionFigures' | 'upstreamFigures' | 'meter' | 'insight'>;
  /** Read at scrape time for the webhooks' and the ledger's figures. */
  db: Db;
  /** Open WebSocket connections of the gateway. */
  webSocketConnections: () => number;
}

const networkOf = new Map<string, string>(RPC_NETWORKS.map((n) => [n.resource, n.path]));

/**
 * The operator's metrics in Prometheus's text format (docs/operations.md "Metrics"): the process
 * (memory, event-loop delay, garbage collection), and the gateway's calls, cache, upstream nodes
 * and WebSocket connections and subscriptions, each read from its owner at scrape time, so that
 * nothing is counted twice and nothing costs the hot path.
 */
export function metricsRegistry(sources: MetricSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'ebs_' });
  const { rpc } = sources;
  /** A counter (`total`) or a gauge by network, read from its owner at each scrape. */
  const byNetwork = (kind: 'total' | 'gauge', name: string, help: string, read: () => Array<[string, number]>) => {
    const config = { name, help, labelNames: ['network'] as const, registers: [registry] };
    if (kind === 'total') {
      new Counter({
        ...config,
        collect() {
          this.reset();
          for (const [network, value] of read()) this.inc({ network }, value);
        },
      });
    } else {
      new Gauge({
        ...config,
        collect() {
          this.reset();
          for (const [network, value] of read()) this.set({ network }, value);
        },
      });
    }
  };
  byNetwork(
    'total',
    'ebs_rpc_calls_total',
    'JSON-RPC calls metered by the gateway (each call of a batch, cached answers and notifications included), by network',
    () => [...rpc.meter.totals].map(([resource, calls]) => [networkOf.get(resource) ?? resource, calls]),
  );
  byNetwork('total', 'ebs_rpc_cache_hits_total', 'Calls answered from the response cache, by network', () =>
    rpc.cacheFigures().map((f) => [f.network, f.hits]),
  );
  byNetwork('total', 'ebs_rpc_cache_misses_total', 'Cacheable calls the cache could not answer, by network', () =>
    rpc.cacheFigures().map((f) => [f.network, f.misses]),
  );
  byNetwork('total', 'ebs_rpc_cache_reorg_flushes_total', 'Caches emptied by a reorg deeper than the depth', () =>
    rpc.cacheFigures().map((f) => [f.network, f.flushes]),
  );
  byNetwork('gauge', 'ebs_rpc_cache_bytes', 'Bytes held by each network’s response cache', () =>
    rpc.cacheFigures().map((f) => [f.network, f.bytes]),
  );
  byNetwork(
    'gauge',
    'ebs_rpc_ws_upstream_subscriptions',
    'Subscriptions held at the nodes (one per distinct filter)',
    () => rpc.subscriptionFigures().map((f) => [f.network, f.upstreamSubscriptions]),
  );
  byNetwork('gauge', 'ebs_rpc_ws_client_subscriptions', 'Clients’ subscriptions, by network', () =>
    rpc.subscriptionFigures().map((f) => [f.network, f.clientSubscriptions]),
  );
  registerUpstreamMetrics(registry, rpc);
  registerMethodMetrics(registry, rpc.insight);
  registerJobMetrics(registry);
  registerStoredMetrics(registry, sources.db);
  new Gauge({
    name: 'ebs_rpc_ws_connections',
    help: 'Open WebSocket connections to the gateway in this process',
    registers: [registry],
    collect() {
      this.set(sources.webSocketConnections());
    },
  });
  return registry;
}

/** Node states as the gauge gives them (docs/operations.md "Upstream nodes"). */
const STATE_VALUES = { up: 0, lagging: 1, limited: 2, down: 3 } as const;

/** The latency histogram's bounds, seconds: the nodes' finer buckets (the insight's) are summed into these. */
const LATENCY_BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Each node of each started network: its state, lag, calls, latency; and each network's retries and hedges. */
function registerUpstreamMetrics(registry: Registry, rpc: MetricSources['rpc']): void {
  const byNode = (
    kind: 'total' | 'gauge',
    name: string,
    help: string,
    read: (node: ReturnType<RpcGateway['upstreamFigures']>[number]['nodes'][number]) => number,
  ) => {
    const config = { name, help, labelNames: ['network', 'upstream'] as const, registers: [registry] };
    const collect = (set: (labels: { network: string; upstream: string }, value: number) => void) => {
      for (const { network, nodes } of rpc.upstreamFigures()) {
        for (const node of nodes) set({ network, upstream: node.upstream }, read(node));
      }
    };
    if (kind === 'total') {
      new Counter({
        ...config,
        collect() {
          this.reset();
          collect((labels, value) => this.inc(labels, value));
        },
      });
    } else {
      new Gauge({
        ...config,
        collect() {
          this.reset();
          collect((labels, value) => this.set(labels, value));
        },
      });
    }
  };
  byNode(
    'gauge',
    'ebs_rpc_upstream_up',
    'Whether an upstream node takes calls (1: up or lagging) or not (0: limited or down)',
    (n) => (n.state === 'up' || n.state === 'lagging' ? 1 : 0),
  );
  byNode(
    'gauge',
    'ebs_rpc_upstream_state',
    'An upstream node’s state: 0 up, 1 lagging, 2 limited (429), 3 down',
    (n) => STATE_VALUES[n.state],
  );
  byNode(
    'gauge',
    'ebs_rpc_upstream_lag_blocks',
    'Blocks an upstream node’s head is below its network’s best head',
    (n) => n.lag ?? Number.NaN,
  );
  byNode(
    'gauge',
    'ebs_rpc_upstream_in_flight',
    'Calls sent to an upstream node and not yet answered',
    (n) => n.inFlight,
  );
  byNode(
    'total',
    'ebs_rpc_upstream_selected_total',
    'Calls the router sent to an upstream node (retries and hedges included)',
    (n) => n.selected,
  );
  const byNetwork = (
    name: string,
    help: string,
    read: (network: ReturnType<RpcGateway['upstreamFigures']>[number]) => number,
  ) =>
    new Counter({
      name,
      help,
      labelNames: ['network'],
      registers: [registry],
      collect() {
        this.reset();
        for (const network of rpc.upstreamFigures()) this.inc({ network: network.network }, read(network));
      },
    });
  byNetwork(
    'ebs_rpc_retries_total',
    'Reads tried again on another node after one failed them (or lacked the data)',
    (n) => n.retries,
  );
  byNetwork('ebs_rpc_hedges_total', 'Slow reads also sent to a second node', (n) => n.hedges);
  const latency = 'ebs_rpc_upstream_latency_seconds';
  const help = 'How long upstream nodes take to answer a call (to the first byte of a streamed answer)';
  // A histogram read from each node's own counts at scrape time: nothing is observed on the hot path.
  registry.registerMetric({
    name: latency,
    help,
    type: 'histogram',
    aggregator: 'sum',
    reset() {},
    async get() {
      const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
      for (const { network, nodes } of rpc.upstreamFigures()) {
        for (const node of nodes) {
          const labels = { network, upstream: node.upstream };
          const { buckets, sumSeconds, count } = node.latency;
          let bucket = 0;
          let cumulative = 0;
          for (const le of LATENCY_BOUNDS) {
            while (bucket < buckets.length && upperBoundOf(bucket) / 1000 <= le * 1.0001)
              cumulative += buckets[bucket++] as number;
            values.push({ metricName: `${latency}_bucket`, labels: { ...labels, le }, value: cumulative });
          }
          values.push({ metricName: `${latency}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
          values.push({ metricName: `${latency}_sum`, labels, value: sumSeconds });
          values.push({ metricName: `${latency}_count`, labels, value: count });
        }
      }
      return { name: latency, help, type: 'histogram', aggregator: 'sum', values };
    },
  } as unknown as Parameters<Registry['registerMetric']>[0]);
}

/** Each scheduled job's runs in this process (jobs/scheduler.ts). */
function registerJobMetrics(registry: Registry): void {
  const byJob = (name: string, help: string, read: (figures: JobFigures) => number) =>
    new Counter({
      name,
      help,
      labelNames: ['job'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [job, figures] of jobRuns) this.inc({ job }, read(figures));
      },
    });
  byJob('ebs_job_runs_total', 'Scheduled job runs in this process', (f) => f.runs);
  byJob('ebs_job_failures_total', 'Scheduled job runs that failed', (f) => f.failures);
  byJob('ebs_job_item_errors_total', 'Items a job run could not process (retried on a later run)', (f) => f.itemErrors);
}

/** Figures read from the database at scrape time: webhook deliveries, the ledger's totals. */
function registerStoredMetrics(registry: Registry, db: Db): void {
  // One read of each table per scrape, shared by the gauges below (which the registry collects at once).
  let read:
    | {
        at: number;
        figures: Promise<[Awaited<ReturnType<typeof webhookFigures>>, Awaited<ReturnType<typeof ledgerTotals>>]>;
      }
    | undefined;
  const stored = () => {
    if (!read || Date.now() - read.at > 1000) {
      const figures = Promise.all([webhookFigures(db), ledgerTotals(db)]);
      read = { at: Date.now(), figures };
    }
    return read.figures;
  };
  new Gauge({
    name: 'ebs_webhook_deliveries',
    help: 'Token forwarding webhooks by delivery status (PENDING, DELIVERED, FAILED)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const [webhooks] = await stored();
      this.reset();
      for (const [status, n] of webhooks.byStatus) this.set({ status }, n);
    },
  });
  new Gauge({
    name: 'ebs_webhook_retries',
    help: 'Webhook delivery attempts past each one’s first',
    registers: [registry],
    async collect() {
      this.set((await stored())[0].retries);
    },
  });
  new Gauge({
    name: 'ebs_ledger_usd',
    help: 'Every account’s ledger summed, USD: balance (completed rows), pending withdrawals',
    labelNames: ['total'],
    registers: [registry],
    async collect() {
      const [, totals] = await stored();
      this.set({ total: 'balance' }, totals.balance);
      this.set({ total: 'pending_withdrawals' }, totals.pendingWithdrawals);
    },
  });
  new Gauge({
    name: 'ebs_ledger_accounts',
    help: 'Accounts with a ledger row',
    registers: [registry],
    async collect() {
      this.set((await stored())[1].accounts);
    },
  });
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics`: served only with METRICS_TOKEN set, to `Authorization: Bearer <token>` (401 to
 * anyone else); without the token it answers 404 as an unknown route does (never the web app's
 * page), and is left out of the API document.
 */
export function registerMetrics(app: FastifyInstance, token: string | undefined, registry: Registry): void {
  const expected = token === undefined ? undefined : digest(token);
  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    if (expected === undefined) {
      return reply.status(404).send({ statusCode: 404, message: 'Route GET /metrics not found', error: 'Not Found' });
    }
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ statusCode: 401, message: 'A valid metrics token is required.', error: 'Unauthorized' });
    }
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
