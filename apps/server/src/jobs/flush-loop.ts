/**
 * What a writer of in-memory counts (the usage meter, the gateway's insight) shares: flushes run one
 * after another, every interval and at stop; a failed write is the writer's to keep and log, and
 * is tried again at the next interval.
 */
export class FlushLoop {
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly write: () => Promise<void>) {}

  /** Writes what has been counted, after any flush under way. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => {}).then(() => this.write());
    return this.flushing;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.flush().catch(() => {
        // logged by the writer; retried next interval
      });
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left (at shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
