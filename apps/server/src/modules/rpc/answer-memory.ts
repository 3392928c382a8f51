import { RpcMessages } from '@ebs/contract';
import type { NodeAnswer } from './upstreams.ts';

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

/**
 * The bytes of node answers the gateway holds at once across the process (RPC_ANSWER_MEMORY_MB):
 * answers it must read whole (a batch it composes, a merged call, a WebSocket message) take their
 * bytes from it as they arrive. A request that would hold an answer waits for room before its
 * calls go out (up to RPC_TIMEOUT_MS, then "busy"); an answer that finds no room while it is read is
 * dropped as busy rather than waiting, so that answers half read cannot wait on each other.
 */
export class AnswerMemory {
  private used = 0;
  private readonly waiting = new Set<() => void>();

  constructor(
    /** Bytes the process may hold. */
    readonly capacity: number,
  ) {}

  /** Bytes held now. */
  get held(): number {
    return this.used;
  }

  /** Takes `bytes` if they fit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used -= bytes;
    if (this.used >= this.capacity) return;
    for (const wake of this.waiting) {
      this.waiting.delete(wake);
      wake();
    }
  }

  /** Resolves once there is room for a new answer; false after `timeoutMs` without any. */
  room(timeoutMs: number): Promise<boolean> | true {
    if (this.used < this.capacity) return true;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(wake);
        resolve(false);
      }, timeoutMs);
      this.waiting.add(wake);
    });
  }

  /**
   * A node's answer read whole, its bytes taken as they arrive: 'too-large' once it passes
   * `maxBytes`, 'busy' once the process has no room for it. Either way a stream is dropped, and
   * nothing of it stays held.
   */
  async hold(answer: NodeAnswer, maxBytes: number): Promise<HeldAnswer | NotHeld> {
    let taken = 0;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release(taken);
    };
    const charge = (bytes: number): NotHeld | null => {
      if (taken + bytes > maxBytes) return 'too-large';
      if (!this.take(bytes)) return 'busy';
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
