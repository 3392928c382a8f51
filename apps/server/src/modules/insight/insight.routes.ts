import { badRequest, endpoints, REQUEST_LOG_DAYS, RPC_NETWORKS } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/database.ts';
import { requireAccount } from '../../http/guards.ts';
import { DAY_MS, dayRange } from '../../http/query.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { percentile } from './latency-histogram.ts';
import { type MethodStatsFilter, readMethodSeries, readMethodStats } from './method-stats.store.ts';
import { listRequests } from './request-log.store.ts';

const HOUR_MS = 3_600_000;
/** The longest range the figures answer for (the Analytics page's longest preset). */
const MAX_RANGE_DAYS = 366;

function checkedNetwork(network: string | undefined): string | undefined {
  if (network !== undefined && !RPC_NETWORKS.some((n) => n.path === network)) {
    throw badRequest(`network must be one of: ${RPC_NETWORKS.map((n) => n.path).join(', ')}`);
  }
  return network;
}

/**
 * The period a query names: the last `hours` (the current hour and those before it), or whole
 * UTC days from dateStart to dateEnd (default: the last 7 days, today included).
 */
function periodOf(query: { dateStart?: string; dateEnd?: string; hours?: number }, now = Date.now()) {
  if (query.hours !== undefined) {
    const hourEnd = now - (now % HOUR_MS) + HOUR_MS;
    return { from: new Date(hourEnd - query.hours * HOUR_MS), to: new Date(hourEnd), period: 'hour' as const };
  }
  const range = dayRange(query.dateStart, query.dateEnd);
  const last = range.to ?? new Date(now - (now % DAY_MS));
  const first = range.from ?? new Date(last.getTime() - 6 * DAY_MS);
  if (first > last) throw badRequest('dateStart must not be after dateEnd');
  if (last.getTime() - first.getTime() >= MAX_RANGE_DAYS * DAY_MS) {
    throw badRequest(`The range must not be longer than ${MAX_RANGE_DAYS} days`);
  }
  return { from: first, to: new Date(last.getTime() + DAY_MS), period: 'day' as const };
}

function filterOf(query: {
  dateStart?: string;
  dateEnd?: string;
  hours?: number;
  apiKeyId?: string;
  network?: string;
}): MethodStatsFilter {
  return { ...periodOf(query), apiKeyId: query.apiKeyId, network: checkedNetwork(query.network) };
}

/** What insightRoutes is built from (the composition root hands it in). */
export interface InsightRoutesOptions {
  db: Db;
}

/**
 * The customer's view of the gateway (the Analytics and Requests pages): per-method figures and
 * the request log (insight-retention.job.ts says how long each is kept).
 */
export const insightRoutes: FastifyPluginAsyncTypebox<InsightRoutesOptions> = async (app, { db }) => {
  route(app, endpoints.usage.methods, {}, async (req) => {
    const rows = await readMethodStats(db, requireAccount(req).id, filterOf(req.query));
    return ok({
      methods: rows.map((r) => ({
        method: r.method,
        network: r.network,
        calls: r.calls,
        computeUnits: r.computeUnits,
        errors: r.errors,
        refused: r.refused,
        p50Ms: percentile(r.latency, 0.5),
        p95Ms: percentile(r.latency, 0.95),
      })),
    });
  });

  route(app, endpoints.usage.methodSeries, {}, async (req) => {
    const filter = filterOf(req.query);
    const series = await readMethodSeries(db, requireAccount(req).id, filter);
    return ok({
      interval: filter.period,
      points: series.byMethod.map((p) => ({ ...p, time: p.time.toISOString() })),
      latency: series.latency.map((p) => ({
        time: p.time.toISOString(),
        p50Ms: percentile(p.latency, 0.5),
        p95Ms: percentile(p.latency, 0.95),
      })),
    });
  });

  route(app, endpoints.usage.requests, {}, async (req) => {
    const { query } = req;
    return ok(
      await listRequests(db, requireAccount(req).id, {
        since: new Date(Date.now() - REQUEST_LOG_DAYS * DAY_MS),
        failedOnly: query.failedOnly,
        method: query.method,
        apiKeyId: query.apiKeyId,
        network: checkedNetwork(query.network),
        httpStatus: query.httpStatus,
        limit: query.limit,
        offset: query.offset,
      }),
    );
  });
};
