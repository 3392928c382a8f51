// `npm run typecheck`: each TypeScript project checked by its own tsc, two at a time (one per core
// of the machines this runs on), every project's errors printed; fails if any project fails.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
// The largest first, so the two slow ones do not end up one after the other.
const projects = ['apps/web', 'apps/server', 'e2e', 'bench', 'packages/contract'];

const check = (project) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit', '--pretty'], { cwd: root });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      process.stdout.write(code === 0 ? `typecheck ${project}: ok\n` : `typecheck ${project}: failed\n${output}`);
      resolve(code === 0);
    });
  });

const queue = [...projects];
const worker = async () => {
  let ok = true;
  for (let project = queue.shift(); project; project = queue.shift()) ok = (await check(project)) && ok;
  return ok;
};
const results = await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));
process.exit(results.every(Boolean) ? 0 : 1);
