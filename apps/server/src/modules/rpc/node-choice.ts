import type { NodeNeed } from './node-need.ts';
import type { UpstreamNode } from './upstream-node.ts';

/** A call far enough below the head to need an archive node first. */
const ARCHIVE_DEPTH = 128n;
/**
 * The fastest tier's width: nodes whose typical latency is within this much of the fastest's (or
 * as much again as the fastest's, for distant nodes) share the calls; the others get none until
 * their last calls are no longer recent, or the fastest slows under its load.
 */
const TIER_MS = 10;

/**
 * The node a call goes to now, by its need (node-need.ts), among those not tried yet: the nodes that
 * may take it (available, its filter's node, not lagging for the head, having its block), narrowed to
 * archive nodes far below the best head (when there are some) and to the fastest tier, then one of
 * them by a smooth weighted round robin (nginx's): each node's running share grows by its effective
 * weight, the largest is chosen and gives back the total. Undefined when none may take it.
 */
export function chooseNode(
  nodes: UpstreamNode[],
  need: NodeNeed,
  tried: Set<UpstreamNode> | undefined,
  best: bigint | undefined,
  maxLag: number,
): UpstreamNode | undefined {
  const now = Date.now();
  if (nodes.length === 1) {
    const [only] = nodes as [UpstreamNode];
    return !tried?.has(only) && only.available(now) && (need.node === null || need.node === only.key)
      ? only
      : undefined;
  }
  let candidates: UpstreamNode[] = [];
  let archive = false;
  const farBelow = need.oldest !== null && best !== undefined && need.oldest + ARCHIVE_DEPTH < best;
  for (const node of nodes) {
    if (tried?.has(node) || !node.available(now)) continue;
    if (need.node !== null && node.key !== need.node) continue;
    if (need.readsHead && node.lagBehind(best) > maxLag) continue;
    if (need.newest !== null && node.head !== undefined && node.head < need.newest) {
      // A block no node has read yet goes to the nodes that are not lagging.
      if (best === undefined || need.newest <= best || node.lagBehind(best) > maxLag) continue;
    }
    if (farBelow && node.archive && !archive) {
      archive = true;
      candidates = [];
    }
    if (archive && !node.archive) continue;
    candidates.push(node);
  }
  if (candidates.length <= 1) return candidates[0];
  let fastest = Number.POSITIVE_INFINITY;
  for (const node of candidates) fastest = Math.min(fastest, node.typical(now) ?? Number.POSITIVE_INFINITY);
  const ceiling = fastest + Math.max(TIER_MS, fastest);
  let total = 0;
  let chosen: UpstreamNode | undefined;
  for (const node of candidates) {
    if ((node.typical(now) ?? 0) > ceiling) continue;
    const weight = node.effectiveWeight(now);
    node.current += weight;
    total += weight;
    if (!chosen || node.current > chosen.current) chosen = node;
  }
  if (chosen) chosen.current -= total;
  return chosen;
}

/**
 * When no node fits (every one lagging, limited or down): the one most likely to answer rather
 * than none; a filter's follow-up only to its node.
 */
export function fallbackNode(nodes: UpstreamNode[], need: NodeNeed): UpstreamNode | undefined {
  const now = Date.now();
  let chosen: UpstreamNode | undefined;
  let chosenRank = Number.POSITIVE_INFINITY;
  for (const node of nodes) {
    if (need.node !== null && node.key !== need.node) continue;
    if (node.maxInFlight > 0 && node.inFlight >= node.maxInFlight) continue;
    const rank = (node.downUntil > 0 ? 2 : 0) + (node.limitedUntil > now ? 1 : 0) - Number(node.head ?? 0n) / 1e15;
    if (rank < chosenRank) {
      chosen = node;
      chosenRank = rank;
    }
  }
  return chosen;
}
