import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * The row count and a hash of every row of every application table, in one query: two equal
 * fingerprints mean no row was added, removed or changed in between.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
  const parts = tables.map(
    (name) =>
      `select '${name}' as name, count(*)::int as rows, ` +
      `md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as hash from "${name}" t`,
  );
  const result = await sql.raw<{ name: string; rows: number; hash: string }>(parts.join(' union all ')).execute(db);
  return Object.fromEntries(result.rows.map((row) => [row.name, `${row.rows} rows, ${row.hash}`]));
}

/** The tables whose fingerprints differ, for a readable failure. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
