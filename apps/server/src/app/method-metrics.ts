import { Counter, type Metric, type Registry } from 'prom-client';
import { type MethodTotals, upperBoundOf } from '../modules/insight/index.ts';

/** The latency histogram's buckets as exposed, in seconds (the gateway keeps finer ones). */
const EXPOSED_BOUNDS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A histogram read from the gateway's own bucket counts at scrape time (prom-client's Histogram
 * only counts what is observed through it). A fine bucket counts under an exposed bound when its
 * whole range lies below it, so each exposed count is exact or a little low, never high.
 */
function storedHistogram(name: string, help: string, read: () => Iterable<MethodTotals>): Metric {
  return {
    name,
    get: async () => {
      const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
      for (const total of read()) {
        const labels = { network: total.network, method: total.method };
        let i = 0;
        let below = 0;
        for (const bound of EXPOSED_BOUNDS_S) {
          while (i < total.latency.length && upperBoundOf(i) <= bound * 1000) below += total.latency[i++] ?? 0;
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound }, value: below });
        }
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: total.calls });
        values.push({ metricName: `${name}_sum`, labels, value: total.latencySumMs / 1000 });
        values.push({ metricName: `${name}_count`, labels, value: total.calls });
      }
      return { name, help, type: 'histogram', values, aggregator: 'sum' };
    },
    reset: () => {},
  } as unknown as Metric;
}

/**
 * The gateway's calls, failures by kind and latency by network and method (from its per-method
 * figures, as of the last flush; none with RPC_INSIGHT=false).
 */
export function registerMethodMetrics(
  registry: Registry,
  insight: { totals: Map<string, MethodTotals>; dropped: number },
): void {
  new Counter({
    name: 'ebs_rpc_method_calls_total',
    help: 'JSON-RPC calls the gateway answered or refused after the key check, by network and method (as of the last flush)',
    labelNames: ['network', 'method'],
    registers: [registry],
    collect() {
      this.reset();
      for (const t of insight.totals.values()) this.inc({ network: t.network, method: t.method }, t.calls);
    },
  });
  new Counter({
    name: 'ebs_rpc_method_errors_total',
    help: 'Failed calls by network, method and kind: rpc (a JSON-RPC error answer), refused (HTTP 4xx), upstream (HTTP 5xx)',
    labelNames: ['network', 'method', 'kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const t of insight.totals.values()) {
        const labels = { network: t.network, method: t.method };
        this.inc({ ...labels, kind: 'rpc' }, t.rpcErrors);
        this.inc({ ...labels, kind: 'refused' }, t.refused);
        this.inc({ ...labels, kind: 'upstream' }, t.upstreamErrors);
      }
    },
  });
  registry.registerMetric(
    storedHistogram(
      'ebs_rpc_method_latency_seconds',
      'Time from a request’s arrival to its answer, by network and method (each call of a batch counts the batch’s time)',
      () => insight.totals.values(),
    ),
  );
  new Counter({
    name: 'ebs_rpc_insight_dropped_total',
    help: 'Figures and logged requests left out because a bound was reached (or the database refused them)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(insight.dropped);
    },
  });
}
