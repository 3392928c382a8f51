// The fleet suite's nodes (bench/fleet.bench.ts): three fixed-answer nodes of one network, a fast
// one, one slower by a fixed delay and one lagging behind the others' head, each answering every
// call with its own head (marked mode), so that an answer tells whether the lagging node gave it.
import { FIXED_HEAD } from './fixed-upstream.ts';
import { wholeSetting } from './settings.ts';
import { adminJsonInServer, type Cleanup, fixedUpstream, type Server, type Upstream } from './stack.ts';

/** The head of the fast and the slow node; the lagging node reports LAG_BLOCKS less. */
export const HEAD = FIXED_HEAD;
/** How far the lagging node is behind: far more than the router allows (RPC_MAX_LAG_BLOCKS, 3). */
export const LAG_BLOCKS = 50;
/**
 * How much later the slow node answers than the fast one (BENCH_FLEET_SLOWER_MS): by default the
 * width of the router's fastest tier (20 ms), the edge of what it shares calls with.
 */
export const SLOWER_MS = wholeSetting('BENCH_FLEET_SLOWER_MS', 20);

export const NODE_NAMES = ['fast', 'slow', 'lagging'] as const;
export type NodeName = (typeof NODE_NAMES)[number];
export type Node = Upstream & { calls(): Promise<number> };
export type Fleet = Record<NodeName, Node>;

const hex = (n: number) => `"0x${n.toString(16)}"`;
/** An answer's result as the fast and the slow node give it, and as the lagging one does (a stale answer). */
export const FRESH_RESULT = hex(HEAD);
export const STALE_RESULT = hex(HEAD - LAG_BLOCKS);

/** Answers counted by what they carry: the best head, the lagging node's (stale), or neither (wrong). */
export class AnswerTally {
  fresh = 0;
  stale = 0;
  wrong = 0;

  /** A substring test, not a parse: it runs in the load generator for every answer. */
  readonly count = (answer: string): void => {
    if (answer.includes(FRESH_RESULT)) this.fresh++;
    else if (answer.includes(STALE_RESULT)) this.stale++;
    else this.wrong++;
  };
}

/** The three nodes of the network, each its own process. */
export async function startFleet(cleanup: Cleanup, network: string): Promise<Fleet> {
  const [fast, slow, lagging] = await Promise.all([
    fixedUpstream(cleanup, network, { head: HEAD, marked: true }),
    fixedUpstream(cleanup, network, { head: HEAD, delayMs: SLOWER_MS, marked: true }),
    fixedUpstream(cleanup, network, { head: HEAD - LAG_BLOCKS, marked: true }),
  ]);
  return { fast, slow, lagging } as Fleet;
}

/** A node as `npm run admin -- rpc upstreams --json` shows it (the fields read here). */
export interface NodeFigures {
  upstream: string;
  state: string;
  head: string | null;
  lag: number;
  /** The last minute's latencies of its calls as the router timed them, ms. */
  p50Ms: number;
  p95Ms: number;
  selected: number;
  retries: number;
  hedges: number;
}

export interface NetworkFigures {
  network: string;
  retries: number;
  hedges: number;
  nodes: NodeFigures[];
}

export async function upstreamFigures(srv: Server, network: string): Promise<NetworkFigures | undefined> {
  const all = (await adminJsonInServer(srv, 'rpc', 'upstreams', '--json')) as NetworkFigures[];
  return all.find((figures) => figures.network === network);
}

/** The router's figures of one of the fleet's nodes (it names a node by its origin). */
export const figuresOf = (network: NetworkFigures | undefined, node: Node) =>
  network?.nodes.find((n) => `${n.upstream}/` === node.url);

/**
 * Waits until the router shows the lagging node lagging by LAG_BLOCKS and the two others up at the
 * head, as the operator's command shows them: the network's nodes start with its first call.
 */
export async function untilLagging(srv: Server, network: string, fleet: Fleet, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let seen: NetworkFigures | undefined;
  for (;;) {
    seen = await upstreamFigures(srv, network);
    const [fast, slow, lagging] = NODE_NAMES.map((name) => figuresOf(seen, fleet[name]));
    const up = (n: NodeFigures | undefined) => n?.state === 'up' && n.head === String(HEAD);
    if (up(fast) && up(slow) && lagging?.state === 'lagging' && lagging.lag === LAG_BLOCKS) {
      return NODE_NAMES.map((name, i) => {
        const n = [fast, slow, lagging][i] as NodeFigures;
        return `${name.padEnd(8)} ${n.upstream}  ${n.state.padEnd(8)} head ${n.head}, lag ${n.lag}`;
      }).join('\n');
    }
    if (Date.now() > deadline) {
      throw new Error(`the router did not show the lagging node lagging in time: ${JSON.stringify(seen)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Each node's count of the calls it was sent (head reads left out). */
export async function nodeCounts(fleet: Fleet): Promise<Record<NodeName, number>> {
  const counts = await Promise.all(NODE_NAMES.map((name) => fleet[name].calls()));
  return Object.fromEntries(NODE_NAMES.map((name, i) => [name, counts[i] as number])) as Record<NodeName, number>;
}

/** Calls each node was sent between two counts. */
export const countsBetween = (before: Record<NodeName, number>, after: Record<NodeName, number>) =>
  Object.fromEntries(NODE_NAMES.map((name) => [name, after[name] - before[name]])) as Record<NodeName, number>;

export function addCounts(sum: Record<NodeName, number>, more: Record<NodeName, number>): void {
  for (const name of NODE_NAMES) sum[name] += more[name];
}

export const noCalls = (): Record<NodeName, number> => ({ fast: 0, slow: 0, lagging: 0 });

/** Each node's share of the calls, 0..1. */
export function shares(counts: Record<NodeName, number>): Record<NodeName, number> {
  const total = NODE_NAMES.reduce((sum, name) => sum + counts[name], 0);
  return Object.fromEntries(NODE_NAMES.map((name) => [name, total === 0 ? 0 : counts[name] / total])) as Record<
    NodeName,
    number
  >;
}
