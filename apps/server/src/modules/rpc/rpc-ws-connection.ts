import { RpcMessages, type RpcNetwork } from '@ebs/contract';
import WebSocket from 'ws';
import type { KeyRequest } from '../keys/index.ts';
import type { Caller } from './rpc-request.ts';
import type { Subscriber } from './subscription-hub.ts';

/**
 * Answers and notifications a client has not read, or that wait for an earlier answer, past this
 * many bytes close its connection; one answer larger than it is refused.
 */
export const MAX_UNREAD_BYTES = 16 * 1024 * 1024;
/** After a close for a refused key, a client that does not close its side is cut off. */
const CLOSE_GRACE_MS = 1_000;
/** A close reason is at most 123 bytes. */
export const reasonOf = (message: string) =>
  Buffer.from(message)
    .subarray(0, 123)
    .toString('utf8')
    .replace(/\uFFFD$/, '');

/** An answer to a message, and how to give its bytes back to the process's answer memory once sent. */
export interface Reply {
  text: string | Buffer;
  release?: () => void;
}

/** An answer to come, in the order of the messages. */
/** What a connection asks before it sends a notification, and tells once it has (the pipeline's cap and meter). */
export interface Notifications {
  paused(connection: RpcConnection): boolean;
  sent(connection: RpcConnection, bytes: number): void;
}

export interface Slot {
  done: boolean;
  answer: Reply | null;
  made: string[];
  /** The connection closed before the answer went out. */
  dropped?: boolean;
}

/** One client's WebSocket: its key, its network, its subscriptions. */
export class RpcConnection implements Subscriber {
  alive = true;
  /** The connection's subscriptions. */
  readonly subscriptions = new Set<string>();
  /** Those whose id the client has been sent; the others' notifications are held until it has. */
  private readonly announced = new Set<string>();
  private readonly early = new Map<string, Buffer[]>();
  private readonly outbox: Slot[] = [];
  /** Bytes held for the client: notifications waiting for their id, answers waiting behind an earlier one. */
  private held = 0;
  /** Messages read while MAX_UNANSWERED were unanswered, answered as earlier ones go out. */
  readonly backlog: string[] = [];

  constructor(
    readonly socket: WebSocket,
    public caller: Caller,
    readonly request: KeyRequest,
    readonly network: RpcNetwork,
    private readonly notifications: Notifications,
  ) {}

  deliver(subscription: string, message: Buffer): void {
    // Past the account's spending cap its subscriptions are paused, not cut: what comes meanwhile is not sent.
    if (this.notifications.paused(this)) return;
    if (!this.announced.has(subscription)) {
      const held = this.early.get(subscription);
      if (held) held.push(message);
      else this.early.set(subscription, [message]);
      this.hold(message.length);
      return;
    }
    if (this.send(message)) this.notifications.sent(this, message.length);
  }

  /** Counts bytes held for the client (negative: let go); past the bound the client is closed. */
  private hold(bytes: number): void {
    this.held += bytes;
    if (bytes > 0 && this.held + this.socket.bufferedAmount > MAX_UNREAD_BYTES) {
      this.close(1008, RpcMessages.readTooSlowly);
    }
  }

  /** The client has been sent these subscriptions' ids: what came for them meanwhile goes now, in order. */
  announce(subscriptions: string[]): void {
    for (const subscription of subscriptions) {
      if (!this.subscriptions.has(subscription)) continue;
      this.announced.add(subscription);
      for (const message of this.early.get(subscription) ?? []) {
        this.hold(-message.length);
        if (this.send(message)) this.notifications.sent(this, message.length);
      }
      this.early.delete(subscription);
    }
  }

  /**
   * A place for the answer to the message just read. Messages are answered at once, side by side,
   * but their answers go out in the order the messages came (as a node's own socket answers, and
   * as clients such as viem's block watcher expect).
   */
  reserve(): Slot {
    const slot: Slot = { done: false, answer: null, made: [] };
    this.outbox.push(slot);
    return slot;
  }

  /** Messages read and not yet answered to the client (computing, or waiting behind an earlier one). */
  get unanswered(): number {
    return this.outbox.length;
  }

  /**
   * An answer is ready: it goes out once every earlier one has, its bytes held for the client (and
   * in the process's answer memory) until then.
   */
  fill(slot: Slot, answer: Reply | null, made: string[]): void {
    if (slot.dropped) {
      answer?.release?.();
      return;
    }
    Object.assign(slot, { done: true, answer, made });
    if (answer !== null) this.hold(Buffer.byteLength(answer.text));
    while (this.outbox[0]?.done) {
      const next = this.outbox.shift() as Slot;
      if (next.answer !== null) {
        this.hold(-Buffer.byteLength(next.answer.text));
        this.send(next.answer.text);
        next.answer.release?.();
      }
      this.announce(next.made);
    }
  }

  /** The answers still held when the connection closes give their bytes back. */
  dropOutbox(): void {
    for (const slot of this.outbox.splice(0)) {
      slot.dropped = true;
      slot.answer?.release?.();
    }
  }

  /** Ends a subscription of this connection; answers whether it held it. */
  drop(subscription: string): boolean {
    this.announced.delete(subscription);
    for (const message of this.early.get(subscription) ?? []) this.hold(-message.length);
    this.early.delete(subscription);
    return this.subscriptions.delete(subscription);
  }

  /** Sends a message; a client that leaves too much unread is closed instead. Answers whether it went. */
  send(text: string | Buffer): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    if (this.held + this.socket.bufferedAmount > MAX_UNREAD_BYTES) {
      this.close(1008, RpcMessages.readTooSlowly);
      return false;
    }
    // A notification's message is one Buffer shared by the group's clients: sent as text, not copied.
    this.socket.send(text, { binary: false });
    return true;
  }

  close(code: number, message: string): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(code, reasonOf(message));
      // Nothing is read after the close; a client that never closes its side is cut off.
      setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS).unref();
    }
  }
}
