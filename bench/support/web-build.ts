import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './stack.ts';

export const WEB_DIST = path.join(ROOT, 'apps/web/dist');

/** What the web build is made from: a change to any of them makes the build stale. */
const SOURCES = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'];

function newest(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

/**
 * Builds the web app (vite) when it is missing or older than its sources, as `npm start` does, so
 * the bench measures the code in the tree. Returns the seconds spent building (0 when it was fresh).
 */
export function ensureWebBuild(log: (line: string) => void): number {
  const index = path.join(WEB_DIST, 'index.html');
  const sourceTime = Math.max(...SOURCES.map((p) => newest(path.join(ROOT, p))));
  if (existsSync(index) && statSync(index).mtimeMs >= sourceTime) return 0;
  log('building the web app (npm run build)');
  const started = performance.now();
  const result = spawnSync('npm', ['run', 'build', '-w', '@ebs/web'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`the web build failed:\n${result.stdout}\n${result.stderr}`);
  return (performance.now() - started) / 1000;
}
