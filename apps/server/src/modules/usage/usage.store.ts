import type { ResourceUsageRecord } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { unitPriceOf } from './prices.store.ts';

/** Requests counted by the gateway for one account, key, resource and day (YYYY-MM-DD, UTC). */
export interface UsageCount {
  accountId: string;
  /** Null for usage no API key incurs (token forwarding fees). */
  apiKeyId: string | null;
  resource: string;
  date: string;
  usage: number;
}

/**
 * Adds counted requests to each day's open record, creating it at the resource's current price.
 * Once the billing job has closed a record, later requests of that day open a new one, so nothing
 * counted is billed twice or lost. Returns the accounts touched.
 */
export async function addUsage(db: Db, counts: UsageCount[]): Promise<string[]> {
  if (counts.length === 0) return [];
  await db
    .insertInto('account_resource_usage')
    .values(
      counts.map((c) => ({
        account_id: c.accountId,
        api_key_id: c.apiKeyId,
        resource_name: c.resource,
        date: c.date,
        usage: c.usage,
        unit_price: unitPriceOf(c.resource),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'api_key_id', 'resource_name', 'date']).where('status', '=', 'PENDING').doUpdateSet({
        usage: sql`account_resource_usage.usage + excluded.usage`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
  return [...new Set(counts.map((c) => c.accountId))];
}

export interface UsageFilter {
  from?: string;
  to?: string;
  resources?: string[];
  limit: number;
  offset: number;
  order: 'asc' | 'desc';
}

/** One page of an account's usage records, by day, and how many match in all. */
export async function listUsage(
  db: Db,
  accountId: string,
  filter: UsageFilter,
): Promise<{ accountResourceUsage: ResourceUsageRecord[]; totalCount: number }> {
  let base = db.selectFrom('account_resource_usage as u').where('u.account_id', '=', accountId);
  if (filter.from) base = base.where('u.date', '>=', filter.from);
  if (filter.to) base = base.where('u.date', '<=', filter.to);
  if (filter.resources) base = base.where('u.resource_name', 'in', filter.resources.length ? filter.resources : ['']);
  const [rows, count] = await Promise.all([
    base
      .select([
        'u.id',
        'u.resource_name',
        sql<string>`u.date::text`.as('date'),
        sql<string>`u.usage::text`.as('usage'),
        'u.status',
        sql<string>`(u.usage * u.unit_price)::text`.as('price'),
        sql<string>`u.unit_price::text`.as('unit_price'),
        'u.api_key_id',
      ])
      .orderBy('u.date', filter.order)
      .orderBy('u.resource_name', filter.order)
      .orderBy('u.created_at', filter.order)
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    totalCount: Number(count.n),
    accountResourceUsage: rows.map((r) => ({
      id: r.id,
      resourceName: r.resource_name,
      date: r.date,
      usage: Number(r.usage),
      status: r.status,
      price: Number(r.price),
      unitPrice: Number(r.unit_price),
      apiKeyId: r.api_key_id,
    })),
  };
}

/** The account-days that have open usage, up to a day (inclusive), oldest first. */
export async function openUsageDays(db: Db, throughDate: string): Promise<Array<{ accountId: string; date: string }>> {
  const rows = await db
    .selectFrom('account_resource_usage')
    .select(['account_id', sql<string>`date::text`.as('date')])
    .where('status', '=', 'PENDING')
    .where('date', '<=', throughDate)
    .groupBy(['account_id', 'date'])
    .orderBy('date')
    .execute();
  return rows.map((r) => ({ accountId: r.account_id, date: r.date }));
}

/**
 * Closes an account-day's open records and returns them with their total price. Run inside a
 * transaction: a second run (or process) waits on the row locks and then finds nothing open.
 */
export async function closeUsageDay(
  db: Db,
  accountId: string,
  date: string,
): Promise<{ ids: string[]; usage: string; amount: string }> {
  const closed = await db
    .updateTable('account_resource_usage')
    .set({ status: 'BILLED', updated_at: sql`now()` })
    .where('account_id', '=', accountId)
    .where('date', '=', date)
    .where('status', '=', 'PENDING')
    .returning(['id', sql<string>`usage::text`.as('usage'), sql<string>`(usage * unit_price)::text`.as('price')])
    .execute();
  if (closed.length === 0) return { ids: [], usage: '0', amount: '0' };
  const ids = closed.map((r) => r.id);
  const total = await db
    .selectFrom('account_resource_usage')
    .select([
      sql<string>`sum(usage)::text`.as('usage'),
      // The ledger keeps micro-USD (6 decimals): the day's total is rounded once, half up.
      sql<string>`round(sum(usage * unit_price), 6)::text`.as('amount'),
    ])
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return { ids, usage: total.usage, amount: total.amount };
}

export async function linkUsageToTransaction(db: Db, ids: string[], transactionId: string): Promise<void> {
  await db
    .updateTable('account_resource_usage')
    .set({ transaction_id: transactionId })
    .where('id', 'in', ids)
    .execute();
}
