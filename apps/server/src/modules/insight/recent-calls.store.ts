import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** An account's calls and failed calls in one minute (UTC). */
export interface RecentCalls {
  accountId: string;
  /** The minute's start, ms since the epoch. */
  minute: number;
  calls: number;
  errors: number;
}

/** Adds flushed counts to their minutes (rows locked in key order: no deadlock between processes). */
export async function addRecentCalls(db: Db, counts: RecentCalls[]): Promise<void> {
  if (counts.length === 0) return;
  const ordered = [...counts].sort((a, b) =>
    a.accountId === b.accountId ? a.minute - b.minute : a.accountId < b.accountId ? -1 : 1,
  );
  await db
    .insertInto('rpc_recent_calls')
    .values(
      ordered.map((c) => ({ account_id: c.accountId, minute: new Date(c.minute), calls: c.calls, errors: c.errors })),
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'minute']).doUpdateSet({
        calls: sql`rpc_recent_calls.calls + excluded.calls`,
        errors: sql`rpc_recent_calls.errors + excluded.errors`,
      }),
    )
    .execute();
}

/** Each account's calls and failed calls since an instant (the accounts without any left out). */
export async function recentCallsSince(
  db: Db,
  accountIds: string[],
  since: Date,
): Promise<Map<string, { calls: number; errors: number }>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('rpc_recent_calls')
    .select(['account_id', sql<string>`sum(calls)::text`.as('calls'), sql<string>`sum(errors)::text`.as('errors')])
    .where('account_id', 'in', accountIds)
    .where('minute', '>=', since)
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((r) => [r.account_id, { calls: Number(r.calls), errors: Number(r.errors) }]));
}

/** Forgets the minutes before `before`. */
export async function pruneRecentCalls(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('rpc_recent_calls').where('minute', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
