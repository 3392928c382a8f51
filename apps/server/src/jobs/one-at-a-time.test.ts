import { describe, expect, it } from 'vitest';
import { OneAtATime } from './one-at-a-time.ts';

describe('a task run one at a time', () => {
  it('starts a run asked for while one is under way after it, so that it reads what was written before the ask', async () => {
    let value = 'old';
    const seen: string[] = [];
    let started: () => void = () => {};
    let open: () => void = () => {};
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let first = true;
    const task = new OneAtATime(async () => {
      const read = value;
      if (first) {
        // The first run has read the value, and waits.
        first = false;
        started();
        await gate;
      }
      seen.push(read);
    });
    const a = task.run();
    await firstStarted;
    expect(task.busy).toBe(true);
    value = 'new';
    const b = task.run();
    open();
    await Promise.all([a, b]);
    expect(seen).toEqual(['old', 'new']);
    expect(task.busy).toBe(false);
  });

  it('runs again after a run that failed', async () => {
    let runs = 0;
    const task = new OneAtATime(async () => {
      runs += 1;
      if (runs === 1) throw new Error('away');
    });
    await expect(task.run()).rejects.toThrow('away');
    await task.run();
    expect([runs, task.busy]).toEqual([2, false]);
  });
});
