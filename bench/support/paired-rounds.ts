import { type Load, type Measurement, measure, type Target } from './load.ts';

export interface PairedRounds {
  on: Measurement[];
  off: Measurement[];
  /** Each pair's throughput on ÷ off. */
  ratios: number[];
}

/**
 * One target measured with a switch of its server on and off, in pairs of back-to-back rounds (on
 * off, off on, on off, ...: one switch per pair, and neither state always first): on a shared
 * machine whose speed drifts over a minute, the two rounds of a pair see the same machine, so the
 * median of the pairs' ratios is the switch's own effect.
 */
export async function pairedRounds(
  target: Target,
  turn: (on: boolean) => Promise<void>,
  pairs: number,
  seconds: number,
  load: Load,
): Promise<PairedRounds> {
  const result: PairedRounds = { on: [], off: [], ratios: [] };
  for (let pair = 0; pair < pairs; pair++) {
    const measured = { on: undefined as Measurement | undefined, off: undefined as Measurement | undefined };
    for (const state of pair % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      await turn(state === 'on');
      const m = await measure(target, seconds, load);
      measured[state] = m;
      result[state].push(m);
    }
    if (measured.on && measured.off) result.ratios.push(measured.on.requestsPerSecond / measured.off.requestsPerSecond);
  }
  return result;
}
