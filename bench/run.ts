// `npm run bench`: runs every suite one after another (they must not disturb each other's figures),
// shows each suite's own tables as it goes, then one table of every figure with its target and
// pass/fail. `npm run bench -- gateway memory` runs only those suites.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { FIGURE_PREFIX, type Figure, passes, targetText } from './support/figures.ts';

const SUITES = ['gateway', 'fleet', 'cache', 'websocket', 'console-api', 'jobs', 'notify', 'web', 'memory'] as const;

/** Runs one suite, passing its tables through and collecting its figures. */
function runSuite(name: string): Promise<{ code: number; figures: Figure[]; seconds: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, `${name}.bench.ts`)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const figures: Figure[] = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith(FIGURE_PREFIX)) figures.push(JSON.parse(line.slice(FIGURE_PREFIX.length)) as Figure);
      else process.stderr.write(`${line}\n`);
    }
  });
  // A Ctrl-C reaches the suite too (same process group); it cleans up and stops.
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve({ code: code ?? 1, figures, seconds: (Date.now() - started) / 1000 }));
  });
}

function formatValue(figure: Figure): string {
  return `${figure.value} ${figure.unit}`;
}

async function main(): Promise<number> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(SUITES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`unknown suite ${unknown.join(', ')}; the suites are ${SUITES.join(', ')}`);
    return 2;
  }
  const chosen = asked.length > 0 ? asked : [...SUITES];
  const started = Date.now();
  const figures: Figure[] = [];
  const broken: string[] = [];
  const times: string[] = [];
  for (const name of chosen) {
    console.error(`\n=== ${name} ===`);
    const result = await runSuite(name);
    figures.push(...result.figures);
    times.push(`${name} ${result.seconds.toFixed(0)} s`);
    if (result.code !== 0) broken.push(name);
  }
  const cpus = os.cpus();
  const lines = [
    '',
    `EBS benchmarks, ${new Date().toISOString()}: Node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GB`,
    `suites: ${times.join(', ')}; ${((Date.now() - started) / 60_000).toFixed(1)} min in all`,
    '',
  ];
  const width = Math.max(...figures.map((f) => `${f.suite}: ${f.name}`.length), 10);
  lines.push(`${'figure'.padEnd(width)}  ${'value'.padStart(14)}  ${'target'.padStart(10)}  result`);
  for (const figure of figures) {
    const verdict = passes(figure);
    const result = verdict === undefined ? '' : verdict ? 'pass' : 'FAIL';
    lines.push(
      `${`${figure.suite}: ${figure.name}`.padEnd(width)}  ${formatValue(figure).padStart(14)}  ${targetText(figure).padStart(10)}  ${result}`,
    );
  }
  const judged = figures.filter((f) => passes(f) !== undefined);
  const failed = judged.filter((f) => passes(f) === false);
  lines.push('', `${judged.length - failed.length} of ${judged.length} targets met`);
  if (broken.length > 0) lines.push(`!!! suites that could not be measured: ${broken.join(', ')} !!!`);
  console.log(lines.join('\n'));
  // Missed targets are figures to read, not a broken run; a suite that could not measure is.
  return broken.length > 0 ? 1 : 0;
}

main().then((code) => process.exit(code));
