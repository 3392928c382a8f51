import { isPerEventResource, type ResourceUsageRecord } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { keysetPages, matchCount, pageRead, totalOf } from '../../db/paging.ts';
import { unitPriceOf } from './prices.store.ts';
import { usagePriceOf } from './usage-price.ts';

/** Requests counted by the gateway for one account, key, resource and day (YYYY-MM-DD, UTC). */
export interface UsageCount {
  accountId: string;
  /** Null for usage no API key incurs (token forwarding fees). */
  apiKeyId: string | null;
  resource: string;
  date: string;
  usage: number;
  /**
   * The calls' compute units, which the record is priced by. Null for token forwards, priced per
   * forward (a forwarding resource keeps none whatever is given); null for an RPC resource counts
   * one unit a call.
   */
  computeUnits: number | null;
}

/** The units a count adds to its record: none for token forwards and webhook deliveries (priced per event). */
const unitsOf = (c: UsageCount) => (isPerEventResource(c.resource) ? null : (c.computeUnits ?? c.usage));

/**
 * A record's compute units as the history shows them: null for token forwards and webhook deliveries; an RPC record
 * written before compute units (none kept) counted one unit a call.
 */
export const recordUnits = (resource: string, usage: string, computeUnits: string | null): number | null =>
  isPerEventResource(resource) ? null : Number(computeUnits ?? usage);

/**
 * Adds counted requests to each day's open record, creating it at the resource's current price.
 * Once the billing job has closed a record, later requests of that day open a new one, so nothing
 * counted is billed twice or lost. Returns the accounts touched.
 */
export async function addUsage(db: Db, counts: UsageCount[]): Promise<string[]> {
  if (counts.length === 0) return [];
  // Rows are locked in the order given: one order for every process, so two writers never deadlock.
  const key = (c: UsageCount) => `${c.accountId}|${c.apiKeyId}|${c.resource}|${c.date}`;
  const ordered = [...counts].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  await db
    .insertInto('account_resource_usage')
    .values(
      ordered.map((c) => ({
        account_id: c.accountId,
        api_key_id: c.apiKeyId,
        resource_name: c.resource,
        date: c.date,
        usage: c.usage,
        compute_units: unitsOf(c),
        unit_price: unitPriceOf(c.resource),
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'api_key_id', 'resource_name', 'date'])
        .where('status', '=', 'PENDING')
        .doUpdateSet({
          usage: sql`account_resource_usage.usage + excluded.usage`,
          // A record opened by a process that kept no units counted one a call.
          compute_units: sql`case when excluded.compute_units is null then account_resource_usage.compute_units
          else coalesce(account_resource_usage.compute_units, account_resource_usage.usage) + excluded.compute_units end`,
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

/** An account's usage records, kept as they are added (account_usage_totals). */
async function recordCount(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('account_usage_totals')
    .select(sql<string>`record_count::text`.as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The records of an account a filter keeps. */
function matchingUsage(db: Db, accountId: string, filter: Omit<UsageFilter, 'limit' | 'offset' | 'order'>) {
  let matching = db.selectFrom('account_resource_usage as m').where('m.account_id', '=', accountId);
  if (filter.from) matching = matching.where('m.date', '>=', filter.from);
  if (filter.to) matching = matching.where('m.date', '<=', filter.to);
  if (filter.resources) {
    matching = matching.where('m.resource_name', 'in', filter.resources.length ? filter.resources : ['']);
  }
  return matching;
}

/** Rows of the usage CSV read at a time. */
export const USAGE_EXPORT_PAGE_ROWS = 1000;

/**
 * Every usage record a filter keeps, in the list's order, a page at a time, each read after the
 * last row of the one before (by day, resource, creation instant and id).
 */
export function usagePages(db: Db, accountId: string, filter: Omit<UsageFilter, 'limit' | 'offset'>) {
  const direction = filter.order === 'asc' ? sql`>` : sql`<`;
  type Row = {
    id: string;
    resource_name: string;
    date: string;
    usage: string;
    compute_units: string | null;
    status: string;
    unit_price: string;
    price: string;
    api_key_id: string | null;
    at: string;
  };
  return keysetPages<Row>(async (after) => {
    let rows = matchingUsage(db, accountId, filter);
    if (after) {
      rows = rows.where(
        sql<boolean>`(m.date, m.resource_name, m.created_at, m.id) ${direction} (${after.date}::date, ${after.resource_name}, ${after.at}::timestamptz, ${after.id}::uuid)`,
      );
    }
    return rows
      .select([
        'm.id',
        'm.resource_name',
        sql<string>`m.date::text`.as('date'),
        sql<string>`m.usage::text`.as('usage'),
        sql<string | null>`m.compute_units::text`.as('compute_units'),
        'm.status',
        sql<string>`m.unit_price::text`.as('unit_price'),
        sql<string>`${usagePriceOf('m')}::text`.as('price'),
        'm.api_key_id',
        sql<string>`m.created_at::text`.as('at'),
      ])
      .orderBy('m.date', filter.order)
      .orderBy('m.resource_name', filter.order)
      .orderBy('m.created_at', filter.order)
      .orderBy('m.id', filter.order)
      .limit(USAGE_EXPORT_PAGE_ROWS)
      .execute();
  }, USAGE_EXPORT_PAGE_ROWS);
}

/**
 * One page of an account's usage records, by day, and how many match in all, in two index passes
 * that neither the page's place nor the account's size make longer (migration 0011, db/paging.ts):
 * - the page's ids are read from the list's index alone, in the list's exact order (the id last, so
 *   that pages neither repeat nor skip records of one day, resource and flush), and only the
 *   page's rows are then read from the table;
 * - the whole list's count is kept as records are added, and its page is read from the nearer end;
 *   a filtered list (a chart's or a month's days) is counted in the same pass as its page's ids.
 */
export async function listUsage(
  db: Db,
  accountId: string,
  filter: UsageFilter,
): Promise<{ accountResourceUsage: ResourceUsageRecord[]; totalCount: number }> {
  const matching = matchingUsage(db, accountId, filter);
  const filtered = Boolean(filter.from || filter.to || filter.resources);
  const kept = filtered ? undefined : await recordCount(db, accountId);
  const read = pageRead(kept, filter.offset, filter.limit, filter.order);
  if (read.limit === 0) return { totalCount: kept ?? 0, accountResourceUsage: [] };
  const page = matching
    .select(['m.id', matchCount(filtered).as('total')])
    .orderBy('m.date', read.order)
    .orderBy('m.resource_name', read.order)
    .orderBy('m.created_at', read.order)
    .orderBy('m.id', read.order)
    .limit(read.limit)
    .offset(read.offset)
    .as('page');
  const rows = await db
    .selectFrom(page)
    .innerJoin('account_resource_usage as u', 'u.id', 'page.id')
    .select([
      'u.id',
      'u.resource_name',
      sql<string>`u.date::text`.as('date'),
      sql<string>`u.usage::text`.as('usage'),
      sql<string | null>`u.compute_units::text`.as('compute_units'),
      'u.status',
      sql<string>`${usagePriceOf('u')}::text`.as('price'),
      sql<string>`u.unit_price::text`.as('unit_price'),
      'u.api_key_id',
      'page.total',
    ])
    .orderBy('u.date', read.order)
    .orderBy('u.resource_name', read.order)
    .orderBy('u.created_at', read.order)
    .orderBy('u.id', read.order)
    .execute();
  if (read.reversed) rows.reverse();
  const totalCount = await totalOf(kept, rows, filter.offset, async () =>
    Number((await matching.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n),
  );
  return {
    totalCount,
    accountResourceUsage: rows.map((r) => ({
      id: r.id,
      resourceName: r.resource_name,
      date: r.date,
      usage: Number(r.usage),
      computeUnits: recordUnits(r.resource_name, r.usage, r.compute_units),
      status: r.status,
      price: Number(r.price),
      unitPrice: Number(r.unit_price),
      apiKeyId: r.api_key_id,
    })),
  };
}

/** The account-days that have open usage, up to a day (inclusive), oldest first, then by account. */
export async function openUsageDays(db: Db, throughDate: string): Promise<UsageDay[]> {
  const rows = await db
    .selectFrom('account_resource_usage')
    .select(['account_id', sql<string>`date::text`.as('date')])
    .where('status', '=', 'PENDING')
    .where('date', '<=', throughDate)
    .groupBy(['account_id', 'date'])
    .orderBy('date')
    .orderBy('account_id')
    .execute();
  return rows.map((r) => ({ accountId: r.account_id, date: r.date }));
}

export interface UsageDay {
  accountId: string;
  /** YYYY-MM-DD (UTC). */
  date: string;
}

/** An account-day's open usage, locked for billing: its total and the records it closes. */
export interface OpenUsageTotal extends UsageDay {
  usage: number;
  /** The records' prices (usagePriceOf), the total rounded once, half up, to the ledger's 6 decimals (decimal text). */
  amount: string;
  /** The records summed, in id order. */
  recordIds: string[];
}

/**
 * Locks the open usage records of many account-days (in id order, so runs or processes billing the
 * same days at once never deadlock: the later one waits on the locks, then finds the records no
 * longer open) and totals them per account-day. Run inside the transaction that bills them.
 */
export async function lockOpenUsage(db: Db, days: UsageDay[]): Promise<OpenUsageTotal[]> {
  if (days.length === 0) return [];
  const rows = await sql<{ account_id: string; date: string; usage: string; amount: string; ids: string[] }>`
    with locked as (
      select u.id, u.account_id, u.date, u.usage, u.compute_units, u.unit_price from account_resource_usage u
      join unnest(${days.map((d) => d.accountId)}::uuid[], ${days.map((d) => d.date)}::date[]) as d(account_id, date)
        on u.account_id = d.account_id and u.date = d.date
      where u.status = 'PENDING'
      order by u.id
      for update of u
    )
    select account_id, date::text as date, sum(usage)::text as usage,
      round(sum(${usagePriceOf('locked')}), 6)::text as amount, array_agg(id order by id)::text[] as ids
    from locked group by account_id, date order by date, account_id`.execute(db);
  return rows.rows.map((r) => ({
    accountId: r.account_id,
    date: r.date,
    usage: Number(r.usage),
    amount: r.amount,
    recordIds: r.ids,
  }));
}

/** Marks locked records BILLED, each with the ledger row that charged it (null: nothing to charge). */
export async function closeUsageRecords(
  db: Db,
  closes: Array<{ recordIds: string[]; transactionId: string | null }>,
): Promise<void> {
  const pairs = closes.flatMap((close) => close.recordIds.map((id) => [id, close.transactionId] as const));
  if (pairs.length === 0) return;
  await sql`update account_resource_usage u set status = 'BILLED', updated_at = now(), transaction_id = c.transaction_id
    from unnest(${pairs.map(([id]) => id)}::uuid[], ${pairs.map(([, tx]) => tx)}::uuid[]) as c(id, transaction_id)
    where u.id = c.id`.execute(db);
}
