// The soak's tables: one line per sample as the run goes, then the summary and the verdict.
import type { LedgerCheck } from './ledger-checks.ts';
import { judgeMemory, MAX_END_ABOVE_MEDIAN, MAX_HEAP_SLOPE_MB_PER_MIN, type MemoryVerdict } from './memory-rule.ts';
import type { Window } from './tally.ts';

export interface ProcessSample {
  rssMb: number;
  /** The least V8 heap in use in the window (read every second from the heap probe); NaN when unread. */
  heapMb: number;
  /** Requests the balancer passed to this process in the window. */
  served: number;
}

export interface Sample {
  at: number;
  processes: ProcessSample[];
  gateway: Window;
  console: Window;
}

const num = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const cols = (values: Array<string | number>, widths: number[]) =>
  values.map((v, i) => String(v).padStart(widths[i] ?? 8)).join(' ');

export function sampleHeader(processes: number): string {
  const perProcess = Array.from({ length: processes }, (_, i) => [`rss${i + 1}`, `heap${i + 1}`, `req${i + 1}`]).flat();
  return cols(
    ['t s', ...perProcess, 'gw req', 'gw err', 'gw p50', 'gw p99', 'con req', 'con err', 'con p50', 'con p99'],
    widths(processes),
  );
}

function widths(processes: number): number[] {
  return [5, ...Array.from({ length: processes }, () => [6, 6, 6]).flat(), 7, 6, 6, 6, 7, 7, 7, 7];
}

export function sampleLine(s: Sample): string {
  const perProcess = s.processes.flatMap((p) => [num(p.rssMb), num(p.heapMb), p.served]);
  return cols(
    [
      Math.round(s.at),
      ...perProcess,
      s.gateway.requests,
      s.gateway.errors,
      num(s.gateway.p50, 1),
      num(s.gateway.p99, 1),
      s.console.requests,
      s.console.errors,
      num(s.console.p50, 1),
      num(s.console.p99, 1),
    ],
    widths(s.processes.length),
  );
}

/** Per process: RSS at the start, mid-run and end, the judged slope and whether memory stayed flat. */
export function memoryVerdicts(samples: Sample[], seconds: number, sampleSeconds: number): MemoryVerdict[] {
  const processes = samples[0]?.processes.length ?? 0;
  return Array.from({ length: processes }, (_, i) =>
    judgeMemory(
      samples.map((s) => ({
        at: s.at,
        rssMb: s.processes[i]?.rssMb ?? Number.NaN,
        heapMb: s.processes[i]?.heapMb ?? Number.NaN,
      })),
      seconds,
      sampleSeconds,
    ),
  );
}

export function memoryLines(samples: Sample[], verdicts: MemoryVerdict[]): string[] {
  const mid = samples[Math.floor(samples.length / 2)];
  const last = samples.at(-1);
  const lines = [
    `memory (MB; flat = over the second half, the heap's per-minute floor grows < ${MAX_HEAP_SLOPE_MB_PER_MIN} MB/min and the last RSS is within ${MAX_END_ABOVE_MEDIAN * 100}% of the RSS median)`,
  ];
  verdicts.forEach((v, i) => {
    const at = (s: Sample | undefined) => num(s?.processes[i]?.rssMb ?? Number.NaN);
    const heap = (s: Sample | undefined) => num(s?.processes[i]?.heapMb ?? Number.NaN);
    lines.push(
      `  process ${i + 1}: RSS start ${at(samples[0])}, mid ${at(mid)}, end ${at(last)} (second half: median ${num(v.rssMedianMb)}, slope ${num(v.rssSlopeMbPerMin, 2)} MB/min); heap start ${heap(samples[0])}, mid ${heap(mid)}, end ${heap(last)} (floor slope ${num(v.heapFloorSlopeMbPerMin, 2)} MB/min): ${v.flat ? 'flat' : 'NOT FLAT'}`,
    );
  });
  return lines;
}

export function ledgerLines(checks: LedgerCheck[], figures: object): string[] {
  const lines = ['ledger, after every server stopped gracefully'];
  for (const check of checks) {
    lines.push(`  ${check.broken.length === 0 ? 'ok  ' : 'FAIL'} ${check.name}`);
    for (const row of check.broken.slice(0, 10)) lines.push(`         ${row}`);
  }
  lines.push(
    `  ${Object.entries(figures)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  return lines;
}
