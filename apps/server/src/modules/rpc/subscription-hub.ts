import { randomBytes } from 'node:crypto';
import { RpcMessages, type RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { SubscriptionKind, SubscriptionRequest } from './subscription-request.ts';
import { UpstreamSocket, UpstreamSocketError } from './upstream-socket.ts';

/** A client's side of its subscriptions. */
export interface Subscriber {
  /** A notification for one of its subscriptions: the whole JSON-RPC message. */
  deliver(subscription: string, message: Buffer): void;
}

export interface SubscriptionFigures {
  network: string;
  upstreamConnected: boolean;
  upstreamSubscriptions: number;
  clientSubscriptions: number;
}

/** Missed blocks read back after a drop, at most (the newest of them). */
export const BACKFILL_MAX_BLOCKS = 128;
/** Blocks (by hash) and logs already sent, remembered to send none twice. */
const SEEN_MAX = 4_096;
/** Distinct filters (subscriptions at the node) one network's hub holds in a process, at most. */
export const MAX_FILTERS = 10_000;

/** A subscription refused by the gateway's own bound rather than by the node. */
export class SubscriptionLimit extends Error {}

/** How long before a refused re-subscription is tried again. */
const RESUBSCRIBE_RETRY_MS = 1_000;

interface Group {
  request: SubscriptionRequest;
  /** The node's id of the subscription on the current socket; null while there is none. */
  upstreamId: string | null;
  /**
   * The id the group's clients get (ids are each connection's own: a client that subscribes to the
   * same filter twice gets a new one for the second), so that one message serves them all.
   */
  sharedId: string;
  /** Each client, and the ids it holds in this group. */
  members: Map<Subscriber, string[]>;
  /** Settles when the first upstream subscription has answered. */
  ready: Promise<void>;
  established: boolean;
  /** An eth_subscribe for it is on its way to the node. */
  renewing: boolean;
  /** newHeads: the last block sent; logs: the newest block whose logs are all sent. */
  lastBlock: bigint | null;
  seen: Set<string>;
  /** Notifications and read-backs, handled one after the other. */
  queue: Promise<void>;
}

type Head = { number?: unknown; hash?: unknown };
type Log = { blockNumber?: unknown; blockHash?: unknown; logIndex?: unknown; removed?: unknown };

const hex = (n: bigint) => `0x${n.toString(16)}`;
/** A block number as nodes write it (0x and at most 16 hex digits); anything else is no number. */
const toBig = (value: unknown): bigint | null =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(value) ? BigInt(value) : null;

/** A block as eth_getBlockByNumber(…, false) answers it, cut to the header newHeads sends. */
function headerOf(block: Record<string, unknown>): Record<string, unknown> {
  const { transactions: _t, uncles: _u, size: _s, totalDifficulty: _d, withdrawals: _w, ...header } = block;
  return header;
}

const newId = () => `0x${randomBytes(16).toString('hex')}`;
const messageOf = (subscription: string, resultJson: string) =>
  Buffer.from(
    `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${subscription}","result":${resultJson}}}`,
  );

const logKey = (log: Log) => `${String(log.blockHash)}:${String(log.logIndex)}:${log.removed === true}`;

/**
 * One network's subscriptions (ARCHITECTURE §5, docs/api.md "WebSocket"): one upstream subscription
 * per distinct filter, whoever asked for it, fanned out to every client that did, each under its
 * own id. When the node's socket drops, every subscription is made again on the next socket, the
 * clients keep their ids, and the blocks (newHeads) or logs (logs) missed in between are read over
 * HTTP and sent first, in order and none twice; a gap between two heads is filled the same way.
 */
export class SubscriptionHub {
  private readonly groups = new Map<string, Group>();
  private readonly byUpstreamId = new Map<string, Group>();
  /** Groups by the ids their clients hold (shared or their own). */
  private readonly byId = new Map<string, Group>();
  private socket: UpstreamSocket | null = null;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly network: RpcNetwork,
    private readonly socketUrls: () => Promise<string[]>,
    /** An HTTP JSON-RPC call through the network's upstreams (the read-backs). */
    private readonly call: (payload: unknown) => Promise<unknown>,
    private readonly timeoutMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Upstream subscriptions held now (one per distinct filter). */
  get upstreamSubscriptions(): number {
    return this.groups.size;
  }

  /** What the operator sees (`npm run admin -- rpc subscriptions`); null before the first subscription. */
  figures(): SubscriptionFigures | null {
    if (!this.socket) return null;
    return {
      network: this.network.path,
      upstreamConnected: this.socket.connected,
      upstreamSubscriptions: this.groups.size,
      clientSubscriptions: [...this.groups.values()].reduce(
        (sum, group) => sum + [...group.members.values()].reduce((n, ids) => n + ids.length, 0),
        0,
      ),
    };
  }

  /**
   * Subscribes a client: answers its subscription id, or throws why the node refused. The client
   * is a member from the start, so that a block made while the node answers is not lost to it: its
   * notifications may come before this answers (the client holds them until it has sent the id).
   */
  async subscribe(request: SubscriptionRequest, subscriber: Subscriber): Promise<string> {
    let group = this.groups.get(request.key);
    if (!group) {
      // Each distinct filter costs a subscription at the node, shared by every customer's: bounded.
      if (this.groups.size >= MAX_FILTERS) throw new SubscriptionLimit(RpcMessages.tooManyFilters(MAX_FILTERS));
      group = this.create(request);
    }
    const held = group.members.get(subscriber);
    const id = held ? newId() : group.sharedId;
    if (held) held.push(id);
    else group.members.set(subscriber, [id]);
    this.byId.set(id, group);
    try {
      await group.ready;
    } catch (error) {
      this.remove(group, subscriber, id);
      throw error;
    }
    return id;
  }

  /** Ends a client's subscription; the upstream one ends with its last client. Answers whether the client held it. */
  unsubscribe(subscriber: Subscriber, id: string): boolean {
    const group = this.byId.get(id);
    if (!group?.members.get(subscriber)?.includes(id)) return false;
    this.remove(group, subscriber, id);
    return true;
  }

  private remove(group: Group, subscriber: Subscriber, id: string): void {
    const held = (group.members.get(subscriber) ?? []).filter((own) => own !== id);
    if (held.length > 0) group.members.set(subscriber, held);
    else group.members.delete(subscriber);
    if (id !== group.sharedId) this.byId.delete(id);
    if (group.members.size === 0 && group.established) this.drop(group);
  }

  /** A new group, in the map at once (a second client asking meanwhile joins it), subscribing upstream. */
  private create(request: SubscriptionRequest): Group {
    const group: Group = {
      request,
      upstreamId: null,
      sharedId: newId(),
      members: new Map(),
      ready: Promise.resolve(),
      established: false,
      renewing: false,
      lastBlock: null,
      seen: new Set(),
      queue: Promise.resolve(),
    };
    this.groups.set(request.key, group);
    this.byId.set(group.sharedId, group);
    group.ready = (async () => {
      try {
        const urls = await this.socketUrls().catch(() => []);
        if (urls.length === 0) throw new UpstreamSocketError(RpcMessages.subscriptionsUnavailable(this.network.name));
        const [head] = await Promise.all([this.head().catch(() => null), this.subscribeUpstream(group)]);
        // Unless a notification came first: where the clients' blocks start.
        if (request.kind !== 'newPendingTransactions') group.lastBlock ??= head;
        group.established = true;
      } catch (error) {
        this.forget(group);
        throw error;
      }
    })();
    group.ready.catch(() => {}); // each subscriber answers the failure
    return group;
  }

  private ensureSocket(): UpstreamSocket {
    this.socket ??= new UpstreamSocket(
      this.network.path,
      this.socketUrls,
      {
        notification: (subscription, result) => this.notified(subscription, result),
        connected: () => this.resubscribeAll(),
        disconnected: () => {
          for (const group of this.groups.values()) group.upstreamId = null;
          this.byUpstreamId.clear();
        },
      },
      this.timeoutMs,
      this.log,
    );
    return this.socket;
  }

  private async subscribeUpstream(group: Group): Promise<void> {
    group.renewing = true;
    try {
      await this.ensureSocket().request('eth_subscribe', group.request.params, (result) => {
        if (typeof result !== 'string') return;
        if (this.groups.get(group.request.key) !== group) {
          // Its clients left while the node answered: the node's subscription goes too.
          this.socket?.request('eth_unsubscribe', [result]).catch(() => {});
          return;
        }
        // Registered as the answer is read: the subscription's first notification may be the next message.
        group.upstreamId = result;
        this.byUpstreamId.set(result, group);
      });
    } finally {
      group.renewing = false;
    }
    if (group.upstreamId === null) throw new UpstreamSocketError(`${this.network.path}: eth_subscribe answered no id`);
  }

  /** After a drop: every established subscription again, then what was missed meanwhile. */
  private resubscribeAll(): void {
    clearTimeout(this.retry);
    for (const group of this.groups.values()) {
      if (!group.established || group.upstreamId !== null || group.renewing) continue;
      this.subscribeUpstream(group)
        .then(() => this.enqueue(group, () => this.catchUp(group)))
        .catch((error: Error) => {
          this.log.warn({ network: this.network.path, err: error }, 'RPC subscription not renewed, retrying');
          clearTimeout(this.retry);
          this.retry = setTimeout(() => this.resubscribeAll(), RESUBSCRIBE_RETRY_MS);
          this.retry.unref();
        });
    }
  }

  private notified(upstreamId: string, result: unknown): void {
    const group = this.byUpstreamId.get(upstreamId);
    // A notification without a result is none (its JSON would not be valid).
    if (group && result !== undefined) this.enqueue(group, () => this.handle(group, result));
  }

  private enqueue(group: Group, step: () => Promise<void> | void): void {
    group.queue = group.queue.then(step).catch((error: Error) => {
      this.log.warn({ network: this.network.path, err: error }, 'RPC subscription notification failed');
    });
  }

  private async handle(group: Group, result: unknown): Promise<void> {
    const kind: SubscriptionKind = group.request.kind;
    if (kind === 'newHeads') {
      const head = result as Head;
      const number = toBig(head?.number);
      if (typeof head?.hash !== 'string' || number === null || group.seen.has(head.hash)) return;
      if (group.lastBlock !== null && number > group.lastBlock + 1n) await this.fillHeads(group, number - 1n);
      this.send(group, result, head.hash, number);
    } else if (kind === 'logs') {
      const log = result as Log;
      const key = logKey(log);
      if (group.seen.has(key)) return;
      const block = toBig(log?.blockNumber);
      this.send(
        group,
        result,
        key,
        block !== null && group.lastBlock !== null && block < group.lastBlock ? null : block,
      );
    } else this.send(group, result, null, null);
  }

  /** Sends a result to every client of the group (its JSON made once), remembering it as sent. */
  private send(group: Group, result: unknown, seenKey: string | null, block: bigint | null): void {
    if (seenKey !== null) {
      group.seen.add(seenKey);
      if (group.seen.size > SEEN_MAX) {
        const oldest = group.seen.values().next().value;
        if (oldest !== undefined) group.seen.delete(oldest);
      }
    }
    if (block !== null) group.lastBlock = block;
    const json = JSON.stringify(result);
    const shared = messageOf(group.sharedId, json);
    for (const [member, ids] of group.members) {
      for (const id of ids) {
        try {
          member.deliver(id, id === group.sharedId ? shared : messageOf(id, json));
        } catch (error) {
          this.log.debug({ err: error }, 'RPC subscriber failed');
        }
      }
    }
  }

  /** newHeads: the blocks after the last one sent, up to `to`, read over HTTP (the newest BACKFILL_MAX_BLOCKS). */
  private async fillHeads(group: Group, to: bigint): Promise<void> {
    if (group.lastBlock === null || to <= group.lastBlock) return;
    let from = group.lastBlock + 1n;
    if (to - from + 1n > BigInt(BACKFILL_MAX_BLOCKS)) from = to - BigInt(BACKFILL_MAX_BLOCKS) + 1n;
    const calls = [];
    for (let n = from; n <= to; n += 1n) {
      calls.push({ jsonrpc: '2.0', id: calls.length, method: 'eth_getBlockByNumber', params: [hex(n), false] });
    }
    const answers = [(await this.call(calls)) as unknown].flat() as Array<{ id?: unknown; result?: unknown }>;
    const byId = new Map(answers.map((a) => [a?.id, a?.result]));
    for (let i = 0; i < calls.length; i++) {
      const block = byId.get(i) as Record<string, unknown> | null | undefined;
      const number = toBig(block?.number);
      if (!block || typeof block.hash !== 'string' || number === null) return; // not there yet: the next head fills it
      if (!group.seen.has(block.hash)) this.send(group, headerOf(block), block.hash, number);
    }
  }

  /** After a re-subscription: what was missed since the last block sent, up to the head. */
  private async catchUp(group: Group): Promise<void> {
    if (group.lastBlock === null) return;
    const head = await this.head();
    if (group.request.kind === 'newHeads') {
      await this.fillHeads(group, head);
      return;
    }
    if (group.request.kind !== 'logs' || head < group.lastBlock) return;
    // As for heads, the newest BACKFILL_MAX_BLOCKS blocks at most.
    const from =
      head - group.lastBlock >= BigInt(BACKFILL_MAX_BLOCKS) ? head - BigInt(BACKFILL_MAX_BLOCKS) + 1n : group.lastBlock;
    const filter = { ...group.request.filter, fromBlock: hex(from), toBlock: hex(head) };
    const answer = (await this.call({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [filter] })) as {
      result?: unknown;
    };
    const logs = Array.isArray(answer?.result) ? (answer.result as Log[]) : [];
    for (const log of logs) {
      const key = logKey(log);
      if (!group.seen.has(key)) this.send(group, log, key, null);
    }
    group.lastBlock = head;
  }

  private async head(): Promise<bigint> {
    const answer = (await this.call({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })) as {
      result?: unknown;
    };
    const head = toBig(answer?.result);
    if (head === null) throw new UpstreamSocketError(`${this.network.path}: eth_blockNumber answered no number`);
    return head;
  }

  /** A group gone: out of the maps, its ids with it. */
  private forget(group: Group): void {
    if (this.groups.get(group.request.key) === group) this.groups.delete(group.request.key);
    for (const ids of group.members.values()) for (const id of ids) this.byId.delete(id);
    this.byId.delete(group.sharedId);
    if (group.upstreamId) this.byUpstreamId.delete(group.upstreamId);
  }

  private drop(group: Group): void {
    this.forget(group);
    const upstreamId = group.upstreamId;
    if (upstreamId === null) return;
    if (this.socket?.connected) this.socket.request('eth_unsubscribe', [upstreamId]).catch(() => {});
  }

  close(): void {
    clearTimeout(this.retry);
    this.socket?.close();
    this.socket = null;
  }
}
