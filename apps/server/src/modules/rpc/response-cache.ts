/** What the operator reads of one network's cache (`npm run admin -- rpc cache`, the bench). */
export interface CacheFigures {
  network: string;
  hits: number;
  misses: number;
  /** Hits over lookups, 0 before any. */
  hitRate: number;
  entries: number;
  bytes: number;
  maxBytes: number;
  /** Times a reorg deeper than the confirmation depth emptied it. */
  flushes: number;
}

/** A string's share of memory, about: V8 keeps one-byte strings at a byte a character, others at two. */
const sizeOf = (key: string, value: string) => 2 * (key.length + value.length) + 64;

/**
 * One network's cached answers: the `result` JSON of a call, by method and parameters, the least
 * recently used dropped first once the bytes pass the bound. An answer larger than an eighth of
 * the bound is not kept (it would push out many small ones).
 */
export class ResponseCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private flushes = 0;

  constructor(
    readonly network: string,
    readonly maxBytes: number,
  ) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: string): void {
    const size = sizeOf(key, value);
    if (size > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= sizeOf(key, old);
    }
    this.entries.set(key, value);
    this.bytes += size;
    for (const [oldest, kept] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= sizeOf(oldest, kept);
    }
  }

  /** After a reorg deeper than the confirmation depth: nothing kept can be trusted. */
  flush(): void {
    this.entries.clear();
    this.bytes = 0;
    this.flushes += 1;
  }

  figures(): CacheFigures {
    const lookups = this.hits + this.misses;
    return {
      network: this.network,
      hits: this.hits,
      misses: this.misses,
      hitRate: lookups === 0 ? 0 : this.hits / lookups,
      entries: this.entries.size,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
      flushes: this.flushes,
    };
  }
}
