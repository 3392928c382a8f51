import { type Load, type Measurement, measure, type Target } from './load.ts';

/** A server whose switch is measured, and how to turn it. */
export interface Side {
  target: Target;
  turn(on: boolean): Promise<void>;
}

export interface WindowPlan {
  /** Windows, an even number: each pair has each server on once. */
  windows: number;
  /** Each window's length, ms. */
  windowMs: number;
  /**
   * A window's first part, not counted: its answers may have been asked before the switch. Longer
   * than the load's slowest answers.
   */
  guardMs: number;
  /** Load before the first window, ms (not counted). */
  warmupMs: number;
}

export interface SideBySide {
  /** Each side's whole run as one measurement: its answers, failures and latency. */
  runs: [Measurement, Measurement];
  /** Each pair of windows: the side on ÷ the side off, answers per second (the geometric mean of its two windows). */
  throughput: number[];
  /** The same, answers per second of each server's own CPU (undefined when the CPU is not read). */
  perCpuSecond: number[] | undefined;
  /** Server CPU per answer over all windows with the switch on and off, µs. */
  cpuPerAnswerUs: { on: number; off: number } | undefined;
}

interface Mark {
  at: number;
  cpu: [number | undefined, number | undefined];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two like servers on the same cores under the same load at the same time, the switch on in one and
 * off in the other, and the other way round in the next window. A shared machine whose speed swings
 * by half within a second slows both alike at every moment, so each window's ratio is the switch's
 * effect; each pair of windows has each server on once, so a difference between the two processes
 * cancels. `switched` false is the control: both stay on (the command is still sent), and the
 * ratios read what the measurement reads when nothing differs.
 */
export async function sideBySide(
  sides: [Side, Side],
  switched: boolean,
  plan: WindowPlan,
  load: Load,
): Promise<SideBySide> {
  const answeredAt: [number[], number[]] = [[], []];
  const marks: Array<{ firstOn: boolean; from: Mark; to: Mark }> = [];
  const mark = (): Mark => ({
    at: performance.now(),
    cpu: [sides[0].target.cpuSeconds?.(), sides[1].target.cpuSeconds?.()],
  });
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  // A bound on the runs' length: the windows end them long before, unless a switch hangs.
  const seconds = Math.ceil((plan.warmupMs + plan.windows * plan.windowMs) / 1000) * 2 + 10;
  const half = { ...load, connections: Math.max(1, Math.floor(load.connections / 2)) };
  const running = sides.map((side, i) =>
    measure(side.target, seconds, half, {
      onAnswer: (at) => answeredAt[i]?.push(at),
      stopWhen: finished,
    }),
  );
  try {
    await sleep(plan.warmupMs);
    for (let w = 0; w < plan.windows; w++) {
      const firstOn = w % 2 === 0;
      await Promise.all([sides[0].turn(!switched || firstOn), sides[1].turn(!switched || !firstOn)]);
      await sleep(plan.guardMs);
      const from = mark();
      await sleep(plan.windowMs - plan.guardMs);
      marks.push({ firstOn, from, to: mark() });
    }
  } finally {
    finish();
  }
  const runs = (await Promise.all(running)) as [Measurement, Measurement];

  const counts = answeredAt.map((times) => {
    // Answers arrive in time order: one pass counts each window's.
    let next = 0;
    return marks.map(({ from, to }) => {
      while (next < times.length && (times[next] as number) < from.at) next++;
      let answers = 0;
      while (next < times.length && (times[next] as number) < to.at) {
        answers++;
        next++;
      }
      return answers;
    });
  }) as [number[], number[]];
  const cpuOf = (side: 0 | 1, w: number) => {
    const { from, to } = marks[w] as (typeof marks)[number];
    const [a, b] = [from.cpu[side], to.cpu[side]];
    return a === undefined || b === undefined ? undefined : b - a;
  };
  const cpuRead = marks.every((_, w) => (cpuOf(0, w) ?? 0) > 0 && (cpuOf(1, w) ?? 0) > 0);
  // The side that was on (switched) or is labelled so (control) in window w, and the other.
  const onSide = (w: number): 0 | 1 => ((marks[w] as (typeof marks)[number]).firstOn ? 0 : 1);
  const ratioIn = (w: number, value: (side: 0 | 1, w: number) => number) =>
    value(onSide(w), w) / value((1 - onSide(w)) as 0 | 1, w);
  const pairs = (value: (side: 0 | 1, w: number) => number) =>
    Array.from({ length: Math.floor(marks.length / 2) }, (_, p) =>
      Math.sqrt(ratioIn(2 * p, value) * ratioIn(2 * p + 1, value)),
    );
  const answers = (side: 0 | 1, w: number) => counts[side][w] as number;
  const perCpu = (side: 0 | 1, w: number) => answers(side, w) / (cpuOf(side, w) as number);
  const cpuPerAnswerUs = (on: boolean) => {
    let cpu = 0;
    let n = 0;
    marks.forEach((_, w) => {
      const side = on ? onSide(w) : ((1 - onSide(w)) as 0 | 1);
      cpu += cpuOf(side, w) ?? 0;
      n += answers(side, w);
    });
    return (cpu * 1e6) / n;
  };
  return {
    runs,
    throughput: pairs(answers),
    perCpuSecond: cpuRead ? pairs(perCpu) : undefined,
    cpuPerAnswerUs: cpuRead ? { on: cpuPerAnswerUs(true), off: cpuPerAnswerUs(false) } : undefined,
  };
}
