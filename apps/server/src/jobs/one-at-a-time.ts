/**
 * A task run one at a time, each run after any under way: whatever was written before a call of
 * `run` is read by the run it answers (a price or a cap changed, then read again). A timer asks
 * only when `busy` is false, so that a slow database piles no runs up.
 */
export class OneAtATime {
  private running: Promise<void> | undefined;

  constructor(private readonly task: () => Promise<void>) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  run(): Promise<void> {
    const run = (this.running ?? Promise.resolve()).catch(() => {}).then(() => this.task());
    this.running = run;
    run
      .finally(() => {
        if (this.running === run) this.running = undefined;
      })
      .catch(() => {});
    return run;
  }
}
