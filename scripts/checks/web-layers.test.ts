import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web app's folders are layers, and an import points down or stays in its folder: `app/` (the
 * routes and layouts) composes the features; a feature (`features/<name>/`) stands on the shared
 * folders and never on another feature; the shared folders (`components/`, `session/`, `api/`,
 * `config/`, `lib/`, `testing/`) never reach up to a feature or to `app/`; and `session/` sits above
 * `api/` (the client gets the session through api/session-link.ts, never by importing it). Every
 * .ts/.tsx file counts, tests included; an import is a relative `from '…'`, `import '…'`,
 * `import('…')` or `vi.mock('…')`.
 */
const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'apps/web/src');

/** The folders directly under src, each a layer. */
const LAYERS = ['app', 'features', 'components', 'session', 'api', 'config', 'lib', 'testing'];
/** The folders every feature shares: none of them imports a feature. */
const SHARED = ['components', 'session', 'api', 'config', 'lib', 'testing'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** A relative import as written, to the file it names where one exists (the folder path otherwise). */
const resolve = (file: string, specifier: string) => {
  const target = path.resolve(path.dirname(file), specifier);
  const found = ['.ts', '.tsx', '/index.ts', '/index.tsx'].map((ending) => target + ending).find(existsSync);
  return found ?? target;
};

/** Every relative import of a file: the file it names, and the line that names it. */
const importsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text, index) =>
      [...text.matchAll(/(?:\bfrom|\bimport\s*\(|\bimport|\bvi\.mock\s*\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => ({
        file,
        line: index + 1,
        target: resolve(file, m[1] ?? ''),
      })),
    );

interface Place {
  /** The folder under src: app, features, lib…; '' for a file directly in src. */
  layer: string;
  /** The feature's name, for a file under features/<name>/. */
  feature?: string;
}

const placeOf = (file: string): Place => {
  const [first = '', second, ...rest] = path.relative(src, file).split(path.sep);
  if (second === undefined) return { layer: '' };
  return first === 'features' && rest.length > 0 ? { layer: first, feature: second } : { layer: first };
};

/** Each rule: what it forbids, and whether an import from one place to another breaks it. */
const RULES: { rule: string; breaks: (from: Place, to: Place) => boolean }[] = [
  { rule: 'only app/ imports app/', breaks: (from, to) => to.layer === 'app' && from.layer !== 'app' },
  {
    rule: 'a feature imports no other feature',
    breaks: (from, to) => from.feature !== undefined && to.feature !== undefined && from.feature !== to.feature,
  },
  { rule: 'api/ does not import session/', breaks: (from, to) => from.layer === 'api' && to.layer === 'session' },
  {
    rule: `${SHARED.map((layer) => `${layer}/`).join(', ')} import no feature`,
    breaks: (from, to) => SHARED.includes(from.layer) && to.layer === 'features',
  },
];

const files = sourceFiles(src);
const arrows = files.flatMap(importsOf);
const shown = (file: string) => path.relative(root, file);

describe('web import layers', () => {
  it('reads the imports of every file of the web app', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(arrows.length).toBeGreaterThan(500);
  });

  it('knows the layer of every file', () => {
    const unknown = files.filter((file) => !LAYERS.includes(placeOf(file).layer)).map(shown);
    expect(unknown, `files outside the layers ${LAYERS.join(', ')}`).toEqual([]);
  });

  it('imports only down the layers or within a folder, and no feature imports another', () => {
    const crossings = arrows.flatMap(({ file, line, target }) =>
      RULES.filter(({ breaks }) => breaks(placeOf(file), placeOf(target))).map(
        ({ rule }) => `${shown(file)}:${line} -> ${shown(target)} (${rule})`,
      ),
    );
    expect(crossings, crossings.join('\n')).toEqual([]);
  });
});
