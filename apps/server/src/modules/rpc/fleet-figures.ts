import type { NodeState, UpstreamNode } from './upstream-node.ts';

/** What the operator reads of a node (npm run admin -- rpc upstreams; /metrics). */
export interface NodeFigures {
  upstream: string;
  archive: boolean;
  weight: number;
  state: NodeState;
  head: string | null;
  /** Blocks below the best head; null for a node whose head was never read. */
  lag: number | null;
  inFlight: number;
  p50Ms: number;
  p95Ms: number;
  callsLastMinute: number;
  errorsLastMinute: number;
  selected: number;
  retries: number;
  hedges: number;
  /** Every call's latency since start (the metrics' histogram). */
  latency: UpstreamNode['window']['sinceStart'];
}

/** A node's figures now, given its network's best head and the lag it allows. */
export function nodeFigures(node: UpstreamNode, best: bigint | undefined, maxLag: number, now: number): NodeFigures {
  const minute = node.window.lastMinute(now);
  const lag = node.lagBehind(best);
  return {
    upstream: node.label,
    archive: node.archive,
    weight: node.weight,
    state: node.state(best, maxLag, now),
    head: node.head === undefined ? null : String(node.head),
    lag: Number.isFinite(lag) ? lag : null,
    inFlight: node.inFlight,
    p50Ms: minute.p50Ms,
    p95Ms: minute.p95Ms,
    callsLastMinute: minute.calls,
    errorsLastMinute: minute.errors,
    selected: node.selected,
    retries: node.retries,
    hedges: node.hedges,
    latency: node.window.sinceStart,
  };
}
