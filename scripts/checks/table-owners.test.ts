import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One owner per table: the SQL of the server's product code names a table only in the module that
 * owns it, as docs/architecture.md's table of modules says. Another module reaches the table
 * through a function the owner exports: data, or an SQL expression the owner builds (the available
 * credit) where one statement must read both. Migrations, and tests with their kits, may name any.
 */
const root = path.resolve(import.meta.dirname, '../..');
const server = path.join(root, 'apps/server/src');

/** The tables of the schema (the keys of `Database` in db/schema.ts). */
function schemaTables(): string[] {
  const schema = readFileSync(path.join(server, 'db/schema.ts'), 'utf8');
  const body = schema.slice(schema.indexOf('export interface Database {'));
  return [...body.slice(0, body.indexOf('\n}')).matchAll(/^ {2}(\w+):/gm)].map((m) => m[1] ?? '');
}

/**
 * Each table's owner from docs/architecture.md: the first cell of the row whose second cell
 * ("owns") names it first, in the infrastructure table (`mail/`) or the modules' table.
 */
function owners(tables: string[]): Map<string, string[]> {
  const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const owned = new Map<string, string[]>();
  for (const row of doc.split('\n')) {
    const cells = row.split('|').map((cell) => cell.trim());
    const owner = cells[1]?.replace(/`/g, '').replace(/\/$/, '');
    const owns = cells[2]?.replace(/^none:.*/, '') ?? '';
    if (!owner || !/^\w+$/.test(owner)) continue;
    const named = new Set([...owns.matchAll(/`(\w+)`/g)].map(([, table]) => table ?? ''));
    for (const table of named) if (tables.includes(table)) owned.set(table, [...(owned.get(table) ?? []), owner]);
  }
  return owned;
}

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['db', 'testing'].includes(entry.name) && dir === server ? [] : productFiles(full);
    return /(?<!\.test|\.test-kit)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The folder under modules/, or the top folder (or file) of src for infrastructure. */
const ownerOf = (file: string) => {
  const parts = path.relative(server, file).split(path.sep);
  return (parts[0] === 'modules' ? parts[1] : parts[0])?.replace(/\.ts$/, '') ?? '';
};

/** Tables named by Kysely's builders and by raw SQL (from, join, into, update), comments left out. */
function tablesNamed(file: string, tables: string[]): string[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const named = new Set<string>();
  const builders =
    /\b(?:selectFrom|updateTable|insertInto|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'(\w+)/g;
  for (const [, table] of code.matchAll(builders)) named.add(table ?? '');
  for (const [, table] of code.matchAll(/\b(?:from|join|into|update)\s+(\w+)\b/gi)) named.add(table ?? '');
  return [...named].filter((table) => tables.includes(table));
}

describe('table owners', () => {
  const tables = schemaTables();
  const owned = owners(tables);

  it('docs/architecture.md gives every table of the schema exactly one owner', () => {
    expect(tables.length).toBeGreaterThan(30);
    const wrong = tables.filter((table) => owned.get(table)?.length !== 1);
    expect(wrong, wrong.map((table) => `${table}: ${owned.get(table)?.join(', ') ?? 'no owner'}`).join('\n')).toEqual(
      [],
    );
  });

  it("product code names a table in SQL only inside the table's owner", () => {
    const crossings = productFiles(server).flatMap((file) =>
      tablesNamed(file, tables)
        .filter((table) => owned.get(table)?.[0] !== ownerOf(file))
        .map((table) => `${path.relative(server, file)} -> ${table}`),
    );
    expect(crossings, crossings.join('\n')).toEqual([]);
  });
});
