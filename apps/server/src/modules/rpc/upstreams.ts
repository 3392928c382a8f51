import type { RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { UpstreamEntry } from '../../config-rpc.ts';
import { type NodeFigures, nodeFigures } from './fleet-figures.ts';
import { FleetHeads } from './fleet-heads.ts';
import { lacksData } from './missing-data.ts';
import { BUFFERED_ANSWER_MAX_BYTES, boundedBody, dropAnswer, type NodeAnswer, UpstreamError } from './node-answer.ts';
import { chooseNode, fallbackNode } from './node-choice.ts';
import { HEAD_READ, type NodeNeed } from './node-need.ts';
import { type CallControl, NodeFailure, UpstreamNode } from './upstream-node.ts';

export interface UpstreamOptions {
  timeoutMs: number;
  /** The first cool-down of a node marked down (RPC_HEALTH_CHECK_SECONDS), doubled at each failed try up to 60 s. */
  firstCoolDownMs: number;
  /** How often each node's head is read (RPC_HEAD_POLL_MS). */
  headPollMs: number;
  /** Blocks a node may be below the best head before it is lagging (RPC_MAX_LAG_BLOCKS[_BY_NETWORK]). */
  maxLagBlocks: number;
  /** RPC_HEDGE_MS: undefined for each node's own p95 (at least 50 ms), 0 for no hedging. */
  hedgeMs: number | undefined;
  /** RPC_BROADCAST_SENDS: a send goes to every healthy node at once. */
  broadcastSends: boolean;
  /** Local nodes that make a block only for a transaction: their head's age says nothing. */
  minesOnDemand: boolean;
  /** Keys each node's key (the one in filter ids): the filter ids' secret, the same in every process. */
  keySecret: Buffer;
  log: FastifyBaseLogger;
}

const HEDGE_FLOOR_MS = 50;
/** Each read earns a tenth of a hedge: at most 10 % of calls are hedged, with a small reserve. */
const HEDGE_SHARE = 0.1;
const HEDGE_RESERVE = 10;

/**
 * A network's fleet of upstream nodes and the router that spreads calls over them
 * (docs/operations.md "Upstream nodes"). Each node's head is read every RPC_HEAD_POLL_MS; a node
 * more than the allowed lag below the best head gets no call that reads the head, and a call at
 * block N goes only to nodes that have N (archive nodes first far below the head). Among the nodes
 * a call may go to, the fastest tier shares the calls by weight, less for calls in flight and
 * latency (a smooth weighted round robin). A read a node fails for its own reason (no answer, a
 * 5xx or 429, data it lacks) is tried once more on another node, and a slow read is hedged on a
 * second one; a send is never sent twice unless broadcast. A 429 makes a node limited for its
 * Retry-After; failing half of its last 20 calls makes it down for a cool-down, then it is tried
 * with one call (its head read).
 */
export class NetworkUpstreams {
  private nodes: UpstreamNode[] | undefined;
  private resolving: Promise<UpstreamNode[]> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly heads: FleetHeads;
  private hedgeBudget = HEDGE_RESERVE;
  /** Calls tried again on another node, and reads hedged, since start (the operator's metrics). */
  retries = 0;
  hedges = 0;

  constructor(
    readonly network: RpcNetwork,
    private readonly entries: () => Promise<UpstreamEntry[]>,
    private readonly options: UpstreamOptions,
  ) {
    this.heads = new FleetHeads(network, options);
  }

  /** Whether the network's nodes are known (their first use, or the status page, started them). */
  get started(): boolean {
    return this.nodes !== undefined;
  }

  /** The nodes, read at first use, with their heads read once before the first call is routed. */
  resolve(): Promise<UpstreamNode[]> {
    if (this.nodes) return Promise.resolve(this.nodes);
    this.resolving ??= this.entries()
      .then(async (entries) => {
        // Nodes of one provider may share an origin (the key in the path): each is named apart.
        const origins = entries.map((entry) => new URL(entry.url).origin);
        const nodes = entries.map((entry, i) => {
          const origin = origins[i] as string;
          const shared = origins.filter((o) => o === origin).length > 1;
          const label = shared ? `${origin}#${i + 1}` : origin;
          return new UpstreamNode(entry, this.options.firstCoolDownMs, label, this.options.keySecret);
        });
        // A lagging node must not get the first calls: the heads are read before any call is routed
        // (but not waited for long).
        let wait: NodeJS.Timeout | undefined;
        await Promise.race([
          this.heads.poll(nodes),
          new Promise<void>((resolve) => {
            wait = setTimeout(resolve, Math.min(2000, this.options.timeoutMs));
          }),
        ]);
        clearTimeout(wait);
        if (this.closed) {
          await Promise.all(nodes.map((node) => node.pool.destroy()));
          throw new Error('the gateway is closing');
        }
        this.timer = setInterval(() => void this.heads.poll(nodes), this.options.headPollMs);
        this.timer.unref();
        this.nodes = nodes;
        return nodes;
      })
      .catch((error: unknown) => {
        this.resolving = undefined;
        throw new UpstreamError(`${this.network.name}: ${(error as Error).message}`, false);
      });
    return this.resolving;
  }

  /** The best head of the nodes that answer (undefined before the first read). */
  bestHead(): bigint | undefined {
    return this.heads.bestHead();
  }

  /** The best head and how long ago it was first seen, ms. */
  headAge(now = Date.now()): { head: bigint; ageMs: number } | undefined {
    return this.heads.headAge(now);
  }

  /** Whether the node with this key is in the fleet and not down (a filter made there still exists). */
  holds(nodeKey: string): boolean {
    const node = this.nodes?.find((n) => n.key === nodeKey);
    return node !== undefined && node.downUntil === 0;
  }

  /**
   * Sends a JSON-RPC body to a node the calls may go to, by their need; a streamed answer must be
   * read or destroyed by the caller. Throws an UpstreamError when no node answered.
   */
  send(body: string, need: NodeNeed = HEAD_READ): Promise<NodeAnswer> {
    const { nodes } = this;
    if (!nodes) return this.resolve().then(() => this.send(body, need));
    if (nodes.length === 1) return this.only(nodes[0] as UpstreamNode, body, need);
    if (need.onlySends && need.node === null && this.options.broadcastSends) return this.broadcast(nodes, body);
    const first =
      chooseNode(nodes, need, undefined, this.heads.bestHead(), this.options.maxLagBlocks) ?? fallbackNode(nodes, need);
    if (!first) return Promise.reject(new UpstreamError(`${this.network.name}: no upstream answered`, false));
    if (need.kind === 'read' || need.kind === 'filter') return this.read(nodes, first, body, need);
    return this.once(nodes, first, body, need);
  }

  /** A network of one node: nothing to choose, retry or hedge (the default's local node, most small setups). */
  private only(node: UpstreamNode, body: string, need: NodeNeed): Promise<NodeAnswer> {
    if (need.node !== null && need.node !== node.key) {
      return Promise.reject(new UpstreamError(`${this.network.name}: no upstream answered`, false));
    }
    return this.ask(node, body, need).then(
      (answer) => this.named(answer, node),
      (error: unknown) => {
        throw this.noAnswer(error);
      },
    );
  }

  /** A node's answer, counted as its selection. */
  private ask(node: UpstreamNode, body: string, need: NodeNeed, control?: CallControl): Promise<NodeAnswer> {
    node.selected += 1;
    return node.ask(body, this.options.timeoutMs, control, need.light ? 'call' : 'heavy');
  }

  /** A send (or a call the gateway cannot judge): tried elsewhere only when the first node never got it. */
  private async once(nodes: UpstreamNode[], first: UpstreamNode, body: string, need: NodeNeed): Promise<NodeAnswer> {
    try {
      return this.named(await this.ask(first, body, need), first);
    } catch (error) {
      const next =
        error instanceof NodeFailure && error.kind === 'refused' && need.node === null
          ? chooseNode(nodes, need, new Set([first]), this.heads.bestHead(), this.options.maxLagBlocks)
          : undefined;
      if (!next) throw this.noAnswer(error);
      this.retried(first);
      try {
        return this.named(await this.ask(next, body, need), next);
      } catch (again) {
        throw this.noAnswer(again);
      }
    }
  }

  /**
   * A read: sent to the first node; tried once more on another when that one fails it for its own
   * reason (no answer, a 5xx or 429, data it lacks); also sent to a second node when not answered
   * within the hedge's delay (within the 10 % budget). The first good answer wins; the other call
   * is cancelled.
   */
  private read(nodes: UpstreamNode[], first: UpstreamNode, body: string, need: NodeNeed): Promise<NodeAnswer> {
    this.hedgeBudget = Math.min(HEDGE_RESERVE, this.hedgeBudget + HEDGE_SHARE);
    return new Promise((resolve, reject) => {
      const tried = new Set([first]);
      const running = new Map<UpstreamNode, CallControl>();
      let settled = false;
      let retried = false;
      let timer: NodeJS.Timeout | undefined;
      let lastFailure: unknown;
      /** A node's answer that lacks the data, given when no other node answers better. */
      let lacking: NodeAnswer | undefined;
      const finish = (answer: NodeAnswer | undefined) => {
        settled = true;
        if (timer) clearTimeout(timer);
        for (const control of running.values()) control.cancel?.();
        running.clear();
        if (answer) resolve(answer);
        else reject(this.noAnswer(lastFailure));
      };
      const failed = (node: UpstreamNode) => {
        if (!retried) {
          const next = chooseNode(nodes, need, tried, this.heads.bestHead(), this.options.maxLagBlocks);
          if (next) {
            retried = true;
            // The retry is the second node: no hedge on top of it.
            if (timer) clearTimeout(timer);
            timer = undefined;
            this.retried(node);
            launch(next);
            return;
          }
        }
        if (running.size === 0) finish(lacking);
      };
      const launch = (node: UpstreamNode) => {
        tried.add(node);
        const control: CallControl = {};
        running.set(node, control);
        this.ask(node, body, need, control).then(
          (answer) => {
            running.delete(node);
            if (settled) return dropAnswer(answer);
            if ('body' in answer && lacksData(answer.body, need, this.heads.bestHead())) {
              if (lacking) dropAnswer(lacking);
              lacking = this.named(answer, node);
              return failed(node);
            }
            finish(this.named(answer, node));
          },
          (error: unknown) => {
            running.delete(node);
            if (settled) return;
            lastFailure = error;
            failed(node);
          },
        );
      };
      launch(first);
      const delay = need.kind === 'read' && need.light ? this.hedgeDelay(first) : 0;
      if (delay > 0) {
        timer = setTimeout(() => {
          timer = undefined;
          if (settled || running.size !== 1 || this.hedgeBudget < 1) return;
          const next = chooseNode(nodes, need, tried, this.heads.bestHead(), this.options.maxLagBlocks);
          if (!next) return;
          this.hedgeBudget -= 1;
          this.hedges += 1;
          first.hedges += 1;
          launch(next);
        }, delay);
      }
    });
  }

  /**
   * Sends (only sends) to every healthy node at once: the first success answers, the others still
   * reach their nodes; a node's refusal (a JSON-RPC error) waits for the others' answers.
   */
  private broadcast(nodes: UpstreamNode[], body: string): Promise<NodeAnswer> {
    const now = Date.now();
    const best = this.heads.bestHead();
    const need: NodeNeed = { ...HEAD_READ, kind: 'send', onlySends: true };
    const targets = nodes.filter(
      (node) => node.downUntil === 0 && node.available(now) && node.lagBehind(best) <= this.options.maxLagBlocks,
    );
    if (targets.length === 0) {
      const first = fallbackNode(nodes, need);
      return first
        ? this.once(nodes, first, body, need)
        : Promise.reject(new UpstreamError(`${this.network.name}: no upstream answered`, false));
    }
    return new Promise((resolve, reject) => {
      let left = targets.length;
      let settled = false;
      let refusal: NodeAnswer | undefined;
      let lastFailure: unknown;
      const done = () => {
        left -= 1;
        if (left > 0 || settled) return;
        settled = true;
        if (refusal) resolve(refusal);
        else reject(this.noAnswer(lastFailure));
      };
      const heard = async (node: UpstreamNode, answer: NodeAnswer) => {
        if (settled) return dropAnswer(answer);
        // A send's answer is a hash or an error: a larger one is no answer to it.
        const body = await boundedBody(answer, BUFFERED_ANSWER_MAX_BYTES);
        if (body === null) throw new Error('the answer to a send is too large');
        const whole = this.named({ status: answer.status, contentType: answer.contentType, body }, node);
        if (body.includes('"error"')) {
          refusal ??= whole;
          return done();
        }
        if (settled) return;
        settled = true;
        resolve(whole);
      };
      for (const node of targets) {
        this.ask(node, body, need)
          .then((answer) => heard(node, answer))
          .catch((error: unknown) => {
            lastFailure = error;
            done();
          });
      }
    });
  }

  private named(answer: NodeAnswer, node: UpstreamNode): NodeAnswer {
    answer.node = node.key;
    return answer;
  }

  private retried(node: UpstreamNode): void {
    this.retries += 1;
    node.retries += 1;
  }

  /** The wait before a slow read is hedged: RPC_HEDGE_MS, or the node's own p95 over the last minute (at least 50 ms). */
  private hedgeDelay(node: UpstreamNode): number {
    const { hedgeMs } = this.options;
    if (hedgeMs !== undefined) return hedgeMs;
    return Math.max(HEDGE_FLOOR_MS, node.window.p95Ms());
  }

  private noAnswer(error: unknown): UpstreamError {
    if (error instanceof UpstreamError) return error;
    const timedOut = error instanceof NodeFailure && error.kind === 'timeout';
    return new UpstreamError(`${this.network.name}: no upstream answered`, timedOut);
  }

  /** Each node with its state and figures (none before the network's first use). */
  figures(now = Date.now()): NodeFigures[] {
    const best = this.heads.bestHead();
    return (this.nodes ?? []).map((node) => nodeFigures(node, best, this.options.maxLagBlocks, now));
  }

  /**
   * The network as customers see it: down when no node answers, degraded when some lag or are down
   * or limited, or when the head is older than three block times (a few polls at least).
   */
  state(now = Date.now()): 'operational' | 'degraded' | 'down' {
    const best = this.heads.bestHead();
    const states = (this.nodes ?? []).map((node) => node.state(best, this.options.maxLagBlocks, now));
    if (states.length === 0) return 'operational';
    const head = this.heads.headAge(now);
    if (states.every((state) => state === 'down') || head === undefined) return 'down';
    if (states.some((state) => state !== 'up')) return 'degraded';
    if (!this.options.minesOnDemand) {
      const stale = Math.max(
        3 * this.network.blockSeconds * 1000,
        2 * this.options.headPollMs + this.network.blockSeconds * 1000,
      );
      if (head.ageMs > stale) return 'degraded';
    }
    return 'operational';
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    // Fastify has finished the requests in flight by now; idle kept-alive sockets just go.
    await Promise.all((this.nodes ?? []).map((node) => node.pool.destroy()));
  }
}
