import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/spec-coverage.md stays true: every requirement has a test, every file it names exists, and
 * every test it names by title is in that file.
 */
const root = path.resolve(import.meta.dirname, '../..');
const text = readFileSync(path.join(root, 'docs/spec-coverage.md'), 'utf8');
const STATUSES = ['done', 'by design'];

interface Row {
  id: string;
  where: string;
  test: string;
  status: string;
}

const rows: Row[] = text
  .split('\n')
  .filter((line) => /^\| [AB]\d+\.\d+ \|/.test(line))
  .map((line) => {
    // Cells are split on pipes outside backticks (a regular expression in a cell may hold one).
    const cells = line.split(/\|(?=(?:[^`]*`[^`]*`)*[^`]*$)/).map((cell) => cell.trim());
    const [, id = '', , where = '', test = '', status = ''] = cells;
    return { id, where, test, status };
  });

/** The files a cell names: `path` or `path:line`, folders and globs left out. */
const filesOf = (cell: string) =>
  [...cell.matchAll(/`([\w./@-]+\.(?:ts|tsx|md|mjs|json|css|sql))(?::\d+)?`/g)].map((m) => m[1] ?? '');

/** The tests a cell names by title: `file` › "title" (unit) or `file` (journey "title"). */
const titlesOf = (cell: string) =>
  [...cell.matchAll(/`([^`]+)` (?:› |\(journey )"((?:[^"\\]|\\.)+?)"/g)].map((m) => ({
    file: m[1] ?? '',
    title: m[2] ?? '',
  }));

describe('docs/spec-coverage.md', () => {
  it('lists the requirements of both spec documents', () => {
    expect(rows.filter((row) => row.id.startsWith('A')).length).toBeGreaterThan(300);
    expect(rows.filter((row) => row.id.startsWith('B')).length).toBeGreaterThan(400);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  });

  it('has a test for every requirement, and a final status', () => {
    const untested = rows.filter((row) => row.test === '').map((row) => row.id);
    const open = rows.filter((row) => !STATUSES.includes(row.status)).map((row) => `${row.id}: ${row.status}`);
    expect(untested).toEqual([]);
    expect(open).toEqual([]);
  });

  it('counts its rows truly', () => {
    const done = rows.filter((row) => row.status === 'done').length;
    const byDesign = rows.filter((row) => row.status === 'by design').length;
    expect(text).toContain(`Counts: ${done} done, ${byDesign} by design.`);
  });

  it('names only files that exist', () => {
    const missing = rows.flatMap((row) =>
      filesOf(`${row.where} ${row.test}`)
        .filter((file) => !existsSync(path.join(root, file)))
        .map((file) => `${row.id}: ${file}`),
    );
    expect(missing).toEqual([]);
  });

  it('names only tests that are in the files it names', () => {
    const sources = new Map<string, string>();
    const read = (file: string) => {
      if (!sources.has(file)) sources.set(file, readFileSync(path.join(root, file), 'utf8'));
      return sources.get(file) ?? '';
    };
    const unknown = rows.flatMap((row) =>
      titlesOf(row.test)
        .filter(({ file }) => existsSync(path.join(root, file)))
        // A title cut short with "…" names the test whose title starts so.
        .filter(({ file, title }) => !read(file).includes(title.replace(/\\"/g, '"').replace(/\s*…$/, '')))
        .map(({ file, title }) => `${row.id}: ${file} › "${title}"`),
    );
    expect(unknown).toEqual([]);
  });
});
