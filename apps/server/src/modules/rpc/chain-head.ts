import type { FastifyBaseLogger } from 'fastify';

export interface ChainHeadOptions {
  /** Blocks below the head before an answer at a block may be kept. */
  depth: number;
  pollMs: number;
  log: FastifyBaseLogger;
  network: string;
  /** A reorg reached a block at or below the line: what was kept must go. */
  onReorg(block: bigint): void;
}

type Send = (payload: unknown) => Promise<unknown>;

/** A head read longer ago than this is not trusted. */
const STALE_MS = 30_000;

/** A network nobody has called for this long is no longer polled. */
const IDLE_MS = 60_000;

const toHex = (n: bigint) => `0x${n.toString(16)}`;
const call = (id: number, method: string, params: unknown[]) => ({ jsonrpc: '2.0', id, method, params });

const resultOf = (answers: unknown, id: number): unknown =>
  Array.isArray(answers)
    ? (answers.find((a) => (a as { id?: unknown })?.id === id) as { result?: unknown })?.result
    : undefined;

const hashOf = (block: unknown): string | undefined => {
  const hash = (block as { hash?: unknown } | null)?.hash;
  return typeof hash === 'string' ? hash : undefined;
};

/**
 * A network's head, read from its upstreams every few seconds while the network is in use, and the
 * line below which the cache trusts answers: the newest block at least the confirmation depth below
 * the head whose hash is recorded. Each poll reads the hash at the previous line again in the same
 * batch that records the next one: a changed hash means a reorg reached the line, and everything
 * kept is dropped (every block below the line is linked to it by its parent hashes).
 */
export class ChainHead {
  private latest: bigint | undefined;
  private line: { block: bigint; hash: string } | undefined;
  private readAt = 0;
  private usedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly send: Send,
    private readonly options: ChainHeadOptions,
  ) {}

  /** The newest block deep enough to keep answers at; undefined until read, or when the last read is old. */
  finalBlock(): bigint | undefined {
    this.use();
    return this.isFresh() ? this.line?.block : undefined;
  }

  /** The head, read now when unknown or old (the eth_getLogs guard resolves `latest` with it). */
  async head(): Promise<bigint | undefined> {
    this.use();
    if (!this.isFresh()) await this.pollNow();
    return this.latest;
  }

  /**
   * The line only moves up, so an older one is only more careful; but a head not read for a while
   * (every node down) is not trusted for new answers until a read succeeds again.
   */
  private isFresh(): boolean {
    return Date.now() - this.readAt <= Math.max(STALE_MS, this.options.pollMs * 3);
  }

  private use(): void {
    this.usedAt = Date.now();
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (Date.now() - this.usedAt > IDLE_MS) this.stop();
      else void this.pollNow();
    }, this.options.pollMs);
    this.timer.unref();
    void this.pollNow();
  }

  /** One read at a time: a caller during a read waits for it. */
  pollNow(): Promise<void> {
    this.polling ??= this.poll().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async poll(): Promise<void> {
    try {
      const head = BigInt(String(resultOf(await this.send([call(0, 'eth_blockNumber', [])]), 0)));
      const next = head - BigInt(this.options.depth);
      const calls = [];
      if (next >= 0n && (!this.line || next > this.line.block))
        calls.push(call(0, 'eth_getBlockByNumber', [toHex(next), false]));
      if (this.line) calls.push(call(1, 'eth_getBlockByNumber', [toHex(this.line.block), false]));
      const answers = calls.length > 0 ? await this.send(calls) : [];
      if (this.line) {
        const seen = hashOf(resultOf(answers, 1));
        // A node that has not reached the line yet (behind the others) proves nothing either way.
        if (seen === undefined) return;
        if (seen !== this.line.hash) {
          this.options.log.warn(
            { network: this.options.network, block: String(this.line.block) },
            'RPC reorg past the confirmation depth: cached answers dropped',
          );
          this.options.onReorg(this.line.block);
          this.line = undefined;
        }
      }
      const hash = hashOf(resultOf(answers, 0));
      if (hash !== undefined) this.line = { block: next, hash };
      this.latest = head;
      this.readAt = Date.now();
    } catch (error) {
      // Unreadable now: past STALE_MS nothing new is kept until a read succeeds.
      this.options.log.debug({ err: error, network: this.options.network }, 'RPC head not read');
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
