import type { Db } from '../../db/database.ts';
import { toMicros, transactionPages } from '../ledger/index.ts';

const HOUR_MS = 60 * 60_000;

/** The first instant of the calendar month (UTC) of `now`, and of the month after. */
function utcMonthOf(now: Date): { start: Date; next: Date } {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    next: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/**
 * What the account's automatic deposits of the calendar month (UTC) of `now` come to, pending and
 * completed (a declined one took nothing), in micro-USD. A few rows a month: read with the
 * history's own filter rather than a sum of the ledger's.
 */
export async function autoDepositsOfMonth(db: Db, accountId: string, now: Date): Promise<bigint> {
  const { start, next } = utcMonthOf(now);
  const rows = transactionPages(db, accountId, {
    from: start,
    until: next,
    types: ['DEPOSIT_AUTO'],
    sortBy: 'createdAt',
    order: 'asc',
  });
  let total = 0n;
  for await (const page of rows) {
    for (const row of page) total += toMicros(row.amount);
  }
  return total;
}

/**
 * When an account whose charge the monthly limit left out is looked at again: within the hour (the
 * owner may raise the limit, or credit may come back over the threshold), at the latest as the next
 * month starts. Not at every run: the job runs every minute.
 */
export const monthLimitWait = (now: Date): Date =>
  new Date(Math.min(now.getTime() + HOUR_MS, utcMonthOf(now).next.getTime()));
