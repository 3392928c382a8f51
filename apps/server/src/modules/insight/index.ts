// The insight module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { errorCodeOf, errorsAndMessageInAnswer, loggedMessage, notedErrors } from './answer-errors.ts';
export type { MethodTotals } from './gateway-insight.ts';
export { GatewayInsight } from './gateway-insight.ts';
export { insightRoutes } from './insight.routes.ts';
export { recentCallsSince } from './insight.service.ts';
export { keepInsight } from './insight-retention.job.ts';
export { bucketOf, LATENCY_BUCKETS, percentile, upperBoundOf } from './latency-histogram.ts';
export type { MethodRun } from './method-run.ts';
