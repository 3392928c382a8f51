import WebSocket from 'ws';
import type { RpcAnswer } from './keys.ts';
import { until } from './poll.ts';

export interface Closed {
  code: number;
  reason: string;
}

export interface Notification {
  subscription: string;
  result: Record<string, unknown>;
}

/** A WebSocket client of the gateway as a test uses it: calls by id, notifications, and how it was closed. */
export class WsClient {
  readonly notifications: Notification[] = [];
  /** Each notification's size as delivered, in bytes (what it is priced by). */
  readonly notificationBytes: number[] = [];
  private readonly answers = new Map<unknown, RpcAnswer | RpcAnswer[]>();
  private nextId = 1;
  closed: Closed | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as RpcAnswer & { method?: string; params?: Notification };
      if (Array.isArray(message)) this.answers.set(`batch:${message.map((a) => a.id).join(',')}`, message);
      else if (message.method === 'eth_subscription' && message.params) {
        this.notifications.push(message.params);
        this.notificationBytes.push(Buffer.byteLength(String(data)));
      } else this.answers.set(message.id, message);
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  /** Connects; answers the client once open, or once the gateway has closed it (see `closed`). */
  static async open(
    url: string,
    headers: Record<string, string> = {},
    options: { autoPong?: boolean } = {},
  ): Promise<WsClient> {
    const socket = new WebSocket(url, { headers, ...options });
    const client = new WsClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('close', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** The close a refused connection gets (the gateway opens it, then closes it with a reason). */
  async closing(): Promise<Closed> {
    return until('the gateway closes the connection', async () => this.closed ?? undefined, 10_000, 10);
  }

  /** Sends a call (its id set when left out) and waits for its answer. */
  async call(method: string, params: unknown[] = [], id: unknown = this.nextId++): Promise<RpcAnswer> {
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return (await this.answer(id)) as RpcAnswer;
  }

  /** Sends a raw message, and waits for the answer with this id (or the batch with these ids). */
  async send(body: unknown, id: unknown): Promise<RpcAnswer | RpcAnswer[]> {
    this.socket.send(typeof body === 'string' ? body : JSON.stringify(body));
    return this.answer(id);
  }

  private answer(id: unknown): Promise<RpcAnswer | RpcAnswer[]> {
    return until(
      `the answer ${String(id)}`,
      async () => {
        const answer = this.answers.get(id);
        if (answer) this.answers.delete(id);
        return answer;
      },
      10_000,
      5,
    );
  }

  /** Waits until `count` notifications of a subscription have arrived; answers their results. */
  async notified(subscription: string, count: number, ms = 10_000): Promise<Record<string, unknown>[]> {
    return until(
      `${count} notifications`,
      async () => {
        const mine = this.notifications.filter((n) => n.subscription === subscription).map((n) => n.result);
        return mine.length >= count ? mine : undefined;
      },
      ms,
      10,
    );
  }

  close(): void {
    this.socket.close();
  }
}
