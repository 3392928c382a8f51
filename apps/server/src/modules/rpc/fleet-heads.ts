import type { RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import { wholeBody } from './node-answer.ts';
import type { UpstreamNode } from './upstream-node.ts';

/** The router's read of a node's chain id and head (test nodes leave it out of what they received). */
export const NODE_HEAD_READ =
  '[{"jsonrpc":"2.0","id":0,"method":"eth_chainId","params":[]},{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}]';

const resultOf = (answers: unknown, id: number): unknown =>
  Array.isArray(answers)
    ? (answers.find((a) => (a as { id?: unknown })?.id === id) as { result?: unknown } | undefined)?.result
    : undefined;

export interface FleetHeadsOptions {
  timeoutMs: number;
  headPollMs: number;
  log: FastifyBaseLogger;
}

/**
 * A network's heads: each node's chain id and head read in one small batch (NODE_HEAD_READ), the
 * node's state told of the outcome (another chain's node is down at once; a read is a down node's
 * one try), and the network's best head and when it was first seen.
 */
export class FleetHeads {
  private readonly polling = new Set<UpstreamNode>();
  /** The best head of the nodes that answer, and when it was first seen (ms). */
  private best: { head: bigint; since: number } | undefined;

  constructor(
    private readonly network: RpcNetwork,
    private readonly options: FleetHeadsOptions,
  ) {}

  /** The best head of the nodes that answer (undefined before the first read). */
  bestHead(): bigint | undefined {
    return this.best?.head;
  }

  /** The best head and how long ago it was first seen, ms. */
  headAge(now = Date.now()): { head: bigint; ageMs: number } | undefined {
    return this.best && { head: this.best.head, ageMs: now - this.best.since };
  }

  /** Reads every node's chain id and head (a down node's read is its one try, once its cool-down is over). */
  async poll(nodes: UpstreamNode[]): Promise<void> {
    const now = Date.now();
    await Promise.all(
      nodes.map(async (node) => {
        if (this.polling.has(node)) return;
        if (node.downUntil > now) return;
        this.polling.add(node);
        try {
          await this.readHead(node);
        } finally {
          this.polling.delete(node);
        }
      }),
    );
    this.updateBest(nodes);
  }

  private async readHead(node: UpstreamNode): Promise<void> {
    const wasDown = node.downUntil > 0;
    try {
      const answer = await node.ask(NODE_HEAD_READ, this.options.timeoutMs, undefined, 'poll');
      const answers = JSON.parse((await wholeBody(answer)).toString('utf8')) as unknown;
      const chainId = Number(resultOf(answers, 0));
      if (chainId !== this.network.chainId) {
        // Another chain's node must answer no call, however well it answers.
        const reason = `answers chain id ${chainId}, not ${this.network.chainId}`;
        if (!wasDown)
          this.options.log.warn({ network: this.network.path, upstream: node.label, reason }, 'RPC upstream down');
        node.wrongChain(reason);
        return;
      }
      node.head = BigInt(String(resultOf(answers, 1)));
      node.headAt = Date.now();
      node.outcome(true, '');
      if (wasDown) this.options.log.info({ network: this.network.path, upstream: node.label }, 'RPC upstream back');
    } catch (error) {
      const reason = (error as Error).message;
      node.outcome(false, reason);
      if (!wasDown && node.downUntil > 0) {
        this.options.log.warn({ network: this.network.path, upstream: node.label, reason }, 'RPC upstream down');
      }
    }
  }

  /**
   * The best head among the nodes that are not down and were read lately; it may fall (a node that
   * had run ahead on its own is gone, or the chain was reset), so that no node stays lagging behind
   * a head nobody has.
   */
  private updateBest(nodes: UpstreamNode[]): void {
    const now = Date.now();
    const fresh = Math.max(30_000, this.options.headPollMs * 3);
    let head: bigint | undefined;
    for (const node of nodes) {
      if (node.downUntil > 0 || node.head === undefined || now - node.headAt > fresh) continue;
      if (head === undefined || node.head > head) head = node.head;
    }
    if (head === undefined) return;
    if (!this.best || head !== this.best.head) this.best = { head, since: now };
  }
}
