import { type Audit, CATEGORIES, type Category } from './lighthouse.ts';
import { median } from './median.ts';
import type { RouteScripts } from './page-scripts.ts';

const kb = (value: number) => value.toFixed(1).padStart(7);

/** One line per route: files, KB decoded, KB gzip -9 (the figure), its limit. */
export function scriptsTable(measured: RouteScripts[], limitOf: (m: RouteScripts) => number): string {
  const width = Math.max(...measured.map((m) => m.route.path.length), 5);
  const lines = [`${'route'.padEnd(width)}  signed in  files   KB raw  KB gzip  limit`];
  for (const m of measured) {
    const limit = limitOf(m);
    lines.push(
      `${m.route.path.padEnd(width)}  ${(m.route.signedIn ? 'yes' : 'no').padEnd(9)}  ${String(m.files.length).padStart(5)}` +
        `  ${kb(m.rawKb)}  ${kb(m.gzipKb)}  ≤ ${limit}${m.gzipKb <= limit ? '' : '  MISSED'}`,
    );
  }
  return lines.join('\n');
}

/** The biggest files of a route, to see what its figure is made of. */
export function filesLine(m: RouteScripts, count: number): string {
  const files = [...m.files].sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, count);
  const names = files.map((f) => `${new URL(f.url).pathname.split('/').pop()} ${(f.gzipBytes / 1024).toFixed(1)}`);
  return `${m.route.path}: ${names.join(', ')} (KB gzip)`;
}

/** A page's runs summed up: each category's median score (Lighthouse's own advice for noisy machines). */
export function medianScores(runs: Audit[]): Record<Category, number> {
  return Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(median(runs.map((r) => r.scores[c])))])) as Record<
    Category,
    number
  >;
}

/** Every run of a page with its lab metrics, and what the audits found in the run of median performance. */
export function auditLines(page: string, runs: Audit[]): string[] {
  const scores = medianScores(runs);
  const lines = [
    `${page}: performance ${scores.performance}, accessibility ${scores.accessibility} (median of ${runs.length})`,
  ];
  runs.forEach((run, i) => {
    lines.push(
      `  run ${i + 1}: performance ${run.scores.performance}, accessibility ${run.scores.accessibility}; ${run.metrics.join(', ')}`,
    );
  });
  const typical = [...runs].sort((a, b) => a.scores.performance - b.scores.performance)[Math.floor(runs.length / 2)];
  for (const finding of typical?.findings ?? []) lines.push(`  - ${finding}`);
  return lines;
}
