import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server reads bottom-up (docs/architecture.md, "Layers"): infrastructure imports no domain;
 * a module imports infrastructure and the modules its row of the table lets it call; the composition
 * root (`app/`) imports anything below it; the entry points (`main.ts`, `forwarder.ts`, `cli/`)
 * sit on top. Product code only: tests, their kits and `testing/` may reach anything.
 */
const root = path.resolve(import.meta.dirname, '../..');
const server = path.join(root, 'apps/server/src');

const LAYERS = { infrastructure: 0, module: 1, app: 2, entry: 3 } as const;
type Layer = keyof typeof LAYERS;

/** A file's layer and, for a module, its name. */
function placeOf(relative: string): { layer: Layer; module?: string } {
  const [top = '', second] = relative.split('/');
  if (top === 'modules') return { layer: 'module', module: second };
  if (top === 'app') return { layer: 'app' };
  if (top === 'cli' || top === 'main.ts' || top === 'forwarder.ts') return { layer: 'entry' };
  return { layer: 'infrastructure' };
}

const isProduct = (relative: string) =>
  !/\.test(-kit)?\.ts$/.test(relative) && !relative.endsWith('.d.ts') && !relative.startsWith('testing/');

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(full);
    return entry.name.endsWith('.ts') && isProduct(path.relative(server, full)) ? [full] : [];
  });
}

interface Arrow {
  from: string;
  to: string;
  line: number;
  /** The names a `{ … }` import takes; undefined for a whole-module or dynamic import. */
  names?: string[];
}

/** Every relative import and re-export (static, type-only and dynamic) of a file, with its line and names. */
function importsOf(file: string, code = readFileSync(file, 'utf8')): Arrow[] {
  const from = path.relative(server, file);
  const lineAt = (offset: number) => code.slice(0, offset).split('\n').length;
  const target = (specifier: string) => path.relative(server, path.resolve(path.dirname(file), specifier));
  const named = [...code.matchAll(/^(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.{1,2}\/[^']+)'/gm)].map(
    (m) => ({
      from,
      to: target(m[2] ?? ''),
      line: lineAt(m.index),
      names: (m[1] ?? '')
        .split(',')
        .map(
          (name) =>
            name
              .replace(/^\s*type\s+/, '')
              .split(' as ')[0]
              ?.trim() ?? '',
        )
        .filter(Boolean),
    }),
  );
  const whole = [
    ...code.matchAll(/(?:^(?:import|export)\s+(?:type\s+)?(?:\*|\w+)[^'{]*from\s+|import\(\s*)'(\.{1,2}\/[^']+)'/gm),
  ].map((m) => ({ from, to: target(m[1] ?? ''), line: lineAt(m.index) }));
  return [...named, ...whole];
}

const isFace = (file: string) => /^modules\/[\w-]+\/index\.ts$/.test(file);

/**
 * Arrows with each import of a module's face followed to the files that define the names it takes,
 * as a face only forwards names: the circles that count are those between the files behind it.
 */
function throughFaces(arrows: Arrow[]): Arrow[] {
  const definedIn = new Map<string, Map<string, string>>();
  for (const arrow of arrows) {
    if (!isFace(arrow.from)) continue;
    const names = definedIn.get(arrow.from) ?? new Map<string, string>();
    for (const name of arrow.names ?? []) names.set(name, arrow.to);
    definedIn.set(arrow.from, names);
  }
  return arrows.flatMap((arrow) => {
    if (isFace(arrow.from)) return [];
    if (!isFace(arrow.to)) return [arrow];
    const names = definedIn.get(arrow.to);
    const files = new Set((arrow.names ?? [...(names?.keys() ?? [])]).map((name) => names?.get(name) ?? arrow.to));
    return [...files].map((to) => ({ ...arrow, to }));
  });
}

/** Imports of a module's files from outside the module that do not go through its face. */
function pastFaces(arrows: Arrow[]): string[] {
  return arrows.flatMap((arrow) => {
    const to = placeOf(arrow.to);
    if (!to.module || placeOf(arrow.from).module === to.module || isFace(arrow.to)) return [];
    return [
      `${arrow.from}:${arrow.line} -> ${arrow.to}: import it from modules/${to.module}/index.ts, the module's face`,
    ];
  });
}

/**
 * Each module's "may call" cell of docs/architecture.md's table of modules: the module names it
 * lists, each explained in parentheses, or "none"; a note may follow a semicolon.
 */
function mayCallTable(doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8')) {
  const table = new Map<string, { calls: Set<string>; row: string }>();
  const section = doc.slice(doc.indexOf('## Modules and their tables'));
  for (const row of section.slice(0, section.indexOf('\n\n', section.indexOf('|'))).split('\n')) {
    const cells = row.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || !/^[a-z][\w, ]*$/.test(cells[1] ?? '') || cells[1] === 'module') continue;
    const calls =
      (cells[3] ?? '')
        .replace(/\([^)]*\)/g, '')
        .split(';')[0]
        ?.replace(/^none.*/, '') ?? '';
    const named = new Set(
      calls
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    );
    const line = `${cells[1]} | may call: ${cells[3]}`;
    for (const module of (cells[1] ?? '').split(',')) table.set(module.trim(), { calls: named, row: line });
  }
  return table;
}

/** What breaks the layers: an arrow into a higher layer, or between modules outside the table. */
function brokenArrows(arrows: Arrow[], table: ReturnType<typeof mayCallTable>): string[] {
  return arrows.flatMap((arrow) => {
    const from = placeOf(arrow.from);
    const to = placeOf(arrow.to);
    const where = `${arrow.from}:${arrow.line} -> ${arrow.to}`;
    if (LAYERS[to.layer] > LAYERS[from.layer]) return [`${where}: ${from.layer} imports ${to.layer}, a layer above it`];
    if (from.layer !== 'module' || to.layer !== 'module' || from.module === to.module) return [];
    const row = table.get(from.module ?? '');
    if (!row) return [`${where}: module ${from.module} has no row in docs/architecture.md's table of modules`];
    if (row.calls.has(to.module ?? '')) return [];
    return [`${where}: ${from.module} may not call ${to.module}, by its row "${row.row}"`];
  });
}

/** Module to module arrows as "from -> to". */
const moduleArrows = (arrows: Arrow[]) =>
  new Set(
    arrows.flatMap((arrow) => {
      const from = placeOf(arrow.from);
      const to = placeOf(arrow.to);
      return from.module && to.module && from.module !== to.module ? [`${from.module} -> ${to.module}`] : [];
    }),
  );

/** Cycles of files (strongly connected parts of the import graph with more than one file). */
function fileCycles(arrows: Arrow[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of arrows) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(to) ?? 0));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const part: string[] = [];
    let top: string | undefined;
    do {
      top = stack.pop();
      if (top) part.push(top);
    } while (top && top !== file);
    if (part.length > 1) cycles.push(part.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

const arrows = productFiles(server).flatMap((file) => importsOf(file));

describe('server layers', () => {
  it('no product file imports a layer above its own, nor a module its row does not list', () => {
    const broken = brokenArrows(arrows, mayCallTable());
    expect(broken, broken.join('\n')).toEqual([]);
  });

  it('every module arrow the table lists is one the code has', () => {
    const used = moduleArrows(arrows);
    const unused = [...mayCallTable()].flatMap(([module, { calls, row }]) =>
      [...calls].filter((to) => !used.has(`${module} -> ${to}`)).map((to) => `${module} -> ${to} (row "${row}")`),
    );
    expect(unused, `listed in docs/architecture.md but not in the code:\n${unused.join('\n')}`).toEqual([]);
  });

  it('code outside a module reaches it only through its face (index.ts)', () => {
    const past = pastFaces(arrows);
    expect(past, past.join('\n')).toEqual([]);
  });

  it('no two product files import each other, directly or around a circle', () => {
    const cycles = fileCycles(throughFaces(arrows));
    expect(cycles, cycles.map((cycle) => cycle.join(' -> ')).join('\n')).toEqual([]);
  });

  // A fresh Node process compiles the files it loads: seconds on a busy machine.
  it('loading the gateway alone loads no file of the console-only modules', () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'loaded-')), 'files.txt');
    const hooks = pathToFileURL(path.join(import.meta.dirname, 'loaded-files.hooks.mjs')).href;
    const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(hooks)})`;
    const gateway = pathToFileURL(path.join(server, 'modules/rpc/rpc.service.ts')).href;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', register, '-e', `await import('${gateway}')`],
      {
        env: { ...process.env, LOADED_FILES_LOG: log },
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const loaded = readFileSync(log, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith(pathToFileURL(server).href))
      .map((url) => path.relative(server, new URL(url).pathname));
    const modules = new Set(loaded.flatMap((file) => placeOf(file).module ?? []));
    expect(loaded.length).toBeGreaterThan(20);
    expect([...modules].sort()).toEqual(['insight', 'keys', 'rpc', 'usage']);
    const consoleOnly = loaded.filter((file) =>
      ['billing', 'settings', 'identity', 'ambassador', 'cards', 'processor'].includes(placeOf(file).module ?? ''),
    );
    expect(consoleOnly).toEqual([]);
  }, 60_000);

  it('finds a planted upward import and names the line of the table it breaks', () => {
    const planted = [
      { from: 'http/guards.ts', to: 'modules/identity/identity.service.ts', line: 3 },
      { from: 'modules/usage/usage.service.ts', to: 'modules/keys/keys.service.ts', line: 7 },
      { from: 'modules/keys/keys.service.ts', to: 'app/app.ts', line: 9 },
    ];
    expect(brokenArrows(planted, mayCallTable())).toEqual([
      'http/guards.ts:3 -> modules/identity/identity.service.ts: infrastructure imports module, a layer above it',
      `modules/usage/usage.service.ts:7 -> modules/keys/keys.service.ts: usage may not call keys, by its row "${mayCallTable().get('usage')?.row}"`,
      'modules/keys/keys.service.ts:9 -> app/app.ts: module imports app, a layer above it',
    ]);
    expect(
      pastFaces([{ from: 'modules/keys/keys.service.ts', to: 'modules/accounts/account-rows.service.ts', line: 4 }]),
    ).toEqual([
      "modules/keys/keys.service.ts:4 -> modules/accounts/account-rows.service.ts: import it from modules/accounts/index.ts, the module's face",
    ]);
    const circle = [
      { from: 'a.ts', to: 'b.ts', line: 1 },
      { from: 'b.ts', to: 'c.ts', line: 1 },
      { from: 'c.ts', to: 'a.ts', line: 1 },
      { from: 'c.ts', to: 'd.ts', line: 2 },
    ];
    expect(fileCycles(circle)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
