import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * The row count and a hash of every row of every application table, in one query: two equal
 * fingerprints mean no row was added, removed or changed in between.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const result = await sql.raw<{ name: string; rows: number; hash: string }>(await fingerprintQuery(db)).execute(db);
  return Object.fromEntries(result.rows.map((row) => [row.name, `${row.rows} rows, ${row.hash}`]));
}

/**
 * The gateway's insight records what each request did, refusals included (that is what it is for):
 * a row there is an observation of the request, not a change it made.
 */
const OBSERVATIONS = ['rpc_method_stats', 'rpc_request_log', 'rpc_recent_calls'];

// The tables are the migrated schema's: read from the catalog once per database, not per fingerprint.
const queries = new WeakMap<Db, Promise<string>>();

function fingerprintQuery(db: Db): Promise<string> {
  let query = queries.get(db);
  if (!query) {
    query = db.introspection.getTables().then((tables) =>
      tables
        .map((table) => table.name)
        .filter((name) => !OBSERVATIONS.includes(name))
        .sort()
        .map(
          (name) =>
            `select '${name}' as name, count(*)::int as rows, ` +
            `md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as hash from "${name}" t`,
        )
        .join(' union all '),
    );
    queries.set(db, query);
  }
  return query;
}

/** The tables whose fingerprints differ, for a readable failure. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
