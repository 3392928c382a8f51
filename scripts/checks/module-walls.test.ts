import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One owner per table (STYLE.md): only the module that owns a table touches its store. A file
 * outside `modules/<name>/` (another module, the command line, the HTTP guards, the jobs, the
 * tests' kits, the journeys, the benchmarks) reaches that module through its service, never its
 * `*.store.ts`.
 */
const root = path.resolve(import.meta.dirname, '../..');
const server = path.join(root, 'apps/server/src');
const modules = path.join(server, 'modules');
/** Everything that can import the server's code: the server itself, the journeys, the benchmarks. */
const sources = [server, path.join(root, 'e2e'), path.join(root, 'bench')];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The module a file belongs to: the folder under modules/, or undefined outside them. */
const moduleOf = (file: string) => {
  const relative = path.relative(modules, file);
  return relative.startsWith('..') ? undefined : relative.split(path.sep)[0];
};

const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    path.resolve(path.dirname(file), m[1] ?? ''),
  );

describe('module walls', () => {
  it('no file imports the store of a module it is not part of', () => {
    const crossings = sources.flatMap(sourceFiles).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.endsWith('.store.ts'))
        .filter((target) => moduleOf(target) !== undefined && moduleOf(target) !== moduleOf(file))
        .map((target) => `${path.relative(root, file)} -> ${path.relative(root, target)}`),
    );
    expect(crossings, crossings.join('\n')).toEqual([]);
  });
});
