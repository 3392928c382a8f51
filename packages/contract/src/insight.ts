import { type Static, Type } from '@sinclair/typebox';
import { defaulted } from './endpoint.ts';

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const UUID = { format: 'uuid' } as const;

/** How long the gateway's per-method figures are kept (older hours are rolled into days). */
export const METHOD_STATS_DAYS = 90;
/** Hours are kept as hours this long; older ones are rolled into their day. */
export const METHOD_STATS_HOURLY_DAYS = 7;
/** How long the request log keeps a request. */
export const REQUEST_LOG_DAYS = 7;
/** The request log counts this many matches at most (100 pages of 10): past it, `totalCount` says this many. */
export const REQUEST_LOG_COUNT_LIMIT = 1000;

/**
 * The Analytics page's ranges: the last 24 hours, and the usage charts' presets up to what is kept
 * (METHOD_STATS_DAYS): no range offers days that are no longer there.
 */
export const ANALYTICS_RANGES = [
  { label: 'Last 24 Hours', hours: 24 },
  { label: 'Last 7 Days', days: 7 },
  { label: 'Last 14 Days', days: 14 },
  { label: 'Last 30 Days', days: 30 },
  { label: 'Last 90 Days', days: 90 },
] as const;

const MethodFilter = {
  dateStart: Type.Optional(
    Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive (UTC); default: 6 days before dateEnd' }),
  ),
  dateEnd: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive (UTC); default: today' })),
  hours: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 168, description: 'the last N hours instead of whole days (dates ignored)' }),
  ),
  apiKeyId: Type.Optional(Type.String(UUID)),
  network: Type.Optional(Type.String({ maxLength: 64, description: "a network's path, e.g. ethereum/mainnet" })),
};

/** GET /api/v1.0/usage/api/methods and its time series. */
export const MethodStatsQuery = Type.Object(MethodFilter, { additionalProperties: false });
export type MethodStatsQuery = Static<typeof MethodStatsQuery>;

/** Every call the gateway answered or refused after the key check, per method and network. */
export const MethodStat = Type.Object({
  method: Type.String(),
  network: Type.String({ description: "the network's path, e.g. ethereum/mainnet" }),
  calls: Type.Integer(),
  errors: Type.Integer({
    description: "the method's errors: JSON-RPC error answers and the nodes' failures (HTTP 5xx)",
  }),
  refused: Type.Integer({
    description: "calls the gateway refused: the key's rules and limits (in a batch too), requests it could not read",
  }),
  computeUnits: Type.Integer({ description: "the method's compute units" }),
  p50Ms: Type.Number({ description: 'median latency, ms' }),
  p95Ms: Type.Number({ description: '95th percentile latency, ms' }),
});
export type MethodStat = Static<typeof MethodStat>;

export const MethodStatList = Type.Object({ methods: Type.Array(MethodStat) });
export type MethodStatList = Static<typeof MethodStatList>;

/** The Analytics page's charts: calls, errors and compute units per method, and latency, per hour or per day. */
export const MethodSeries = Type.Object({
  interval: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
  points: Type.Array(
    Type.Object({
      time: Type.String({ format: 'date-time', description: 'the hour or day the figures are of (UTC)' }),
      method: Type.String(),
      calls: Type.Integer(),
      errors: Type.Integer(),
      refused: Type.Integer(),
      computeUnits: Type.Integer({ description: "the method's compute units" }),
    }),
  ),
  latency: Type.Array(
    Type.Object({
      time: Type.String({ format: 'date-time' }),
      p50Ms: Type.Number(),
      p95Ms: Type.Number(),
    }),
  ),
});
export type MethodSeries = Static<typeof MethodSeries>;

/** The request log's filters (GET /api/v1.0/usage/api/requests). */
const RequestFilter = {
  failedOnly: Type.Optional(
    Type.Boolean({ description: 'only requests that failed (an HTTP failure or a JSON-RPC error)' }),
  ),
  method: Type.Optional(Type.String({ maxLength: 100 })),
  apiKeyId: Type.Optional(Type.String(UUID)),
  network: Type.Optional(Type.String({ maxLength: 64 })),
  httpStatus: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
};

export const RequestLogQuery = Type.Object(
  {
    limit: defaulted(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    offset: defaulted(Type.Integer({ minimum: 0, maximum: REQUEST_LOG_COUNT_LIMIT, default: 0 })),
    ...RequestFilter,
  },
  { additionalProperties: false },
);
export type RequestLogQuery = Static<typeof RequestLogQuery>;

/** One logged request: never its body nor its key's secret. */
export const RequestLogEntry = Type.Object({
  time: Type.String({ format: 'date-time' }),
  apiKeyId: Type.String(),
  apiKeyName: Type.String(),
  network: Type.String(),
  methods: Type.Array(Type.String()),
  httpStatus: Type.Integer(),
  errorCode: Type.Union([Type.Integer(), Type.Null()], { description: 'the first JSON-RPC error code, if any' }),
  errorMessage: Type.Union([Type.String(), Type.Null()], {
    description: "what the gateway answered: the refusal's or the node's first error message (300 characters at most)",
  }),
  requestChars: Type.Union([Type.Integer(), Type.Null()], {
    description: "the request body's length in characters (the body is never kept); null for older entries",
  }),
  latencyMs: Type.Number(),
  clientIp: Type.String(),
  origin: Type.Union([Type.String(), Type.Null()]),
});
export type RequestLogEntry = Static<typeof RequestLogEntry>;

export const RequestLogList = Type.Object({
  requests: Type.Array(RequestLogEntry),
  totalCount: Type.Integer({ description: `the matching requests, counted up to ${REQUEST_LOG_COUNT_LIMIT}` }),
});
export type RequestLogList = Static<typeof RequestLogList>;
