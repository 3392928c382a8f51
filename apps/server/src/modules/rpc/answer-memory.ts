import { RpcMessages } from '@ebs/contract';
import type { NodeAnswer } from './node-answer.ts';

/** Why a node's answer was not held: larger than one answer may be, or no room left in the process. */
export type NotHeld = 'too-large' | 'busy';

/** A node's answer held whole, and its bytes' share of the process's answer memory until released. */
export interface HeldAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  /** Gives its bytes back to the process's answer memory; safe to call more than once. */
  release: () => void;
}

/** The share of the process's answer memory one account may hold, so that one cannot starve the others. */
const ACCOUNT_SHARE = 0.25;

/**
 * The bytes of node answers the gateway holds at once across the process (RPC_ANSWER_MEMORY_MB):
 * answers it must read whole (a batch it composes, a merged call, a WebSocket message) take their
 * bytes from it as they arrive, and give them back once written out. One account holds at most a
 * quarter of it. A request that would hold an answer waits, in turn, until a whole answer of the
 * largest size would fit (up to RPC_TIMEOUT_MS, then "busy") before its calls go out; an answer that
 * finds no room while it is read is dropped as busy rather than waiting, so that answers half read
 * cannot wait on each other.
 */
export class AnswerMemory {
  private used = 0;
  private readonly byAccount = new Map<string, number>();
  private readonly waiting: Array<() => void> = [];

  constructor(
    /** Bytes the process may hold. */
    readonly capacity: number,
    /** The largest answer one request may hold (RPC_MAX_ANSWER_BYTES): a new one starts when that much is free. */
    private readonly answerBytes: number,
  ) {}

  /** Bytes held now. */
  get held(): number {
    return this.used;
  }

  private hasRoom(): boolean {
    return this.used + Math.min(this.answerBytes, this.capacity) <= this.capacity;
  }

  /** Takes `bytes` for `account` if they fit in the process's memory and the account's share. */
  private take(account: string, bytes: number): boolean {
    const mine = this.byAccount.get(account) ?? 0;
    if (this.used + bytes > this.capacity || mine + bytes > this.capacity * ACCOUNT_SHARE) return false;
    this.used += bytes;
    this.byAccount.set(account, mine + bytes);
    return true;
  }

  private release(account: string, bytes: number): void {
    if (bytes === 0) return;
    this.used -= bytes;
    const left = (this.byAccount.get(account) ?? 0) - bytes;
    if (left > 0) this.byAccount.set(account, left);
    else this.byAccount.delete(account);
    while (this.waiting.length > 0 && this.hasRoom()) this.waiting.shift()?.();
  }

  /** Resolves once there is room for a new answer, first come first served; false after `timeoutMs` without any. */
  room(timeoutMs: number): Promise<boolean> | true {
    if (this.waiting.length === 0 && this.hasRoom()) return true;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      }, timeoutMs);
      this.waiting.push(wake);
    });
  }

  /**
   * A node's answer read whole, its bytes taken for `account` as they arrive: 'too-large' once it
   * passes `maxBytes`, 'busy' once the process (or the account's share) has no room for it. Either way a stream is dropped, and
   * nothing of it stays held.
   */
  async hold(answer: NodeAnswer, maxBytes: number, account: string): Promise<HeldAnswer | NotHeld> {
    let taken = 0;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release(account, taken);
    };
    const charge = (bytes: number): NotHeld | null => {
      if (taken + bytes > maxBytes) return 'too-large';
      if (!this.take(account, bytes)) return 'busy';
      taken += bytes;
      return null;
    };
    if ('body' in answer) {
      const refused = charge(answer.body.length);
      if (refused) return refused;
      return { status: answer.status, contentType: answer.contentType, body: answer.body, release };
    }
    const { stream } = answer;
    const drop = (why: NotHeld) => {
      stream.destroy();
      release();
      return why;
    };
    if (Number(answer.length) > maxBytes) return drop('too-large');
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) {
        const refused = charge((chunk as Buffer).length);
        if (refused) return drop(refused);
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      release();
      throw error;
    }
    return { status: answer.status, contentType: answer.contentType, body: Buffer.concat(chunks, taken), release };
  }
}

/** The message every call of a request gets when its answer could not be held. */
export const notHeldMessage = (why: NotHeld, maxBytes: number): string =>
  why === 'busy' ? RpcMessages.answersBusy : RpcMessages.answerTooLarge(maxBytes / 1024 / 1024);
