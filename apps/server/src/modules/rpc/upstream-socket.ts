import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';

/** Waits between attempts to reach a network's WebSocket nodes: doubling from the first to the last. */
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 2_000;
/** A node that has not answered a ping within this long is taken for gone and left. */
const PING_MS = 15_000;
/** A socket that stayed open this long starts the waits over; one dropped sooner keeps them growing. */
const STABLE_MS = 10_000;
/** The largest message taken from a node (a notification is a few KB). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface UpstreamSocketEvents {
  /** A subscription's notification, as the node sent it. */
  notification(subscription: string, result: unknown): void;
  /** A node has been reached (at first, or again after a drop). */
  connected(): void;
  /** The node was lost: the subscriptions made on its socket are gone. */
  disconnected(): void;
}

interface Pending {
  /** Called as the answer is read, before any later message of the socket (a subscription's first notification). */
  onResult: ((result: unknown) => void) | undefined;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class UpstreamSocketError extends Error {
  constructor(
    message: string,
    /** The node's JSON-RPC error code, when the node refused the call. */
    readonly nodeCode?: number,
  ) {
    super(message);
  }
}

/**
 * A network's WebSocket to its nodes (the ws:// and wss:// entries of RPC_UPSTREAMS, or the local
 * node's), for subscriptions: JSON-RPC requests with their answers, and the nodes' notifications.
 * When the socket drops it is opened again, on the next node of the list, waiting longer each time
 * (up to 2 s), until close(); each new socket is announced with `connected`.
 */
export class UpstreamSocket {
  private socket: WebSocket | null = null;
  private open = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private attempt = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private waiters: Array<() => void> = [];
  /** eth_subscribe calls that timed out: a late answer's subscription is ended at once. */
  private readonly abandoned = new Set<number>();

  constructor(
    private readonly network: string,
    private readonly urls: () => Promise<string[]>,
    private readonly events: UpstreamSocketEvents,
    private readonly timeoutMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    void this.connect();
  }

  /** Whether a node is reached now. */
  get connected(): boolean {
    return this.open;
  }

  /**
   * One JSON-RPC call on the socket; waits up to the timeout for a node to be reached. `onResult`
   * sees the result as soon as it is read, before the socket's next message.
   */
  async request(method: string, params: unknown[], onResult?: (result: unknown) => void): Promise<unknown> {
    if (!this.open) await this.whenOpen();
    const socket = this.socket;
    if (!socket || !this.open) throw new UpstreamSocketError(`${this.network}: no WebSocket node answered`);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        if (method === 'eth_subscribe') this.abandoned.add(id);
        reject(new UpstreamSocketError(`${this.network}: ${method} had no answer in time`));
      }, this.timeoutMs);
      this.pending.set(id, { onResult, resolve, reject, timer });
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  private whenOpen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(new UpstreamSocketError(`${this.network}: no WebSocket node answered`));
      }, this.timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(done);
    });
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    let urls: string[];
    try {
      urls = await this.urls();
    } catch (error) {
      this.log.warn({ network: this.network, err: error }, 'RPC WebSocket upstream unknown');
      this.scheduleRetry();
      return;
    }
    if (this.closed) return;
    const url = urls[this.attempt % urls.length];
    if (!url) return;
    const socket = new WebSocket(url, {
      perMessageDeflate: false,
      handshakeTimeout: this.timeoutMs,
      maxPayload: MAX_MESSAGE_BYTES,
    });
    this.socket = socket;
    let alive = true;
    let openedAt = 0;
    socket.on('open', () => {
      this.open = true;
      openedAt = Date.now();
      for (const waiter of this.waiters.splice(0)) waiter();
      this.pinger = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, PING_MS);
      this.pinger.unref();
      this.events.connected();
    });
    socket.on('pong', () => {
      alive = true;
    });
    socket.on('message', (data) => this.read(String(data)));
    socket.on('error', (error) => {
      this.log.debug({ network: this.network, err: error }, 'RPC WebSocket upstream error');
    });
    socket.on('close', () => {
      const wasOpen = this.open;
      this.open = false;
      clearInterval(this.pinger);
      this.abandoned.clear();
      for (const [id, pending] of this.pending) {
        clearTimeout(pending.timer);
        pending.reject(new UpstreamSocketError(`${this.network}: the WebSocket node went away`));
        this.pending.delete(id);
      }
      if (this.closed) return;
      if (wasOpen) this.events.disconnected();
      if (wasOpen)
        this.log.warn({ network: this.network, upstream: new URL(url).origin }, 'RPC WebSocket upstream lost');
      // A node that lets the socket in and drops it at once is not retried every 0.1 s.
      this.attempt = wasOpen && Date.now() - openedAt >= STABLE_MS ? 1 : this.attempt + 1;
      this.scheduleRetry();
    });
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    const wait = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, this.attempt - 1));
    this.retry = setTimeout(() => void this.connect(), wait);
    this.retry.unref();
  }

  private read(text: string): void {
    let message: { id?: unknown; method?: unknown; params?: { subscription?: unknown; result?: unknown } };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.method === 'eth_subscription' && typeof message.params?.subscription === 'string') {
      this.events.notification(message.params.subscription, message.params.result);
      return;
    }
    if (typeof message.id === 'number' && this.abandoned.delete(message.id)) {
      const late = (message as { result?: unknown }).result;
      if (typeof late === 'string') this.request('eth_unsubscribe', [late]).catch(() => {});
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    this.pending.delete(message.id as number);
    clearTimeout(pending.timer);
    const answer = message as { result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (answer.error) {
      const code = typeof answer.error.code === 'number' ? answer.error.code : undefined;
      pending.reject(new UpstreamSocketError(String(answer.error.message ?? 'the node refused'), code));
      return;
    }
    pending.onResult?.(answer.result);
    pending.resolve(answer.result);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pinger);
    this.socket?.terminate();
  }
}
