import type { Db } from '../../db/database.ts';
import { refreshBillingStatus } from '../ledger/ledger.service.ts';
import { billUsageDays, openUsageDays } from './usage.store.ts';

export interface UsageBillingRun {
  /** WITHDRAW_RESOURCE_USAGE transactions posted. */
  transactions: number;
  /** Usage records closed. */
  records: number;
  errors: string[];
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Account-days billed per database transaction. One day at a time cost a transaction (and its
 * commit's disk flush) per account: 10 000 accounts took minutes. A batch is a handful of
 * statements whatever its size, and small enough that a failure retries little (docs/performance.md).
 */
const BATCH = 500;

/**
 * Posts metered usage to the ledger: for each account and day with open usage, one
 * WITHDRAW_RESOURCE_USAGE transaction of usage × unit price, and the records marked BILLED with
 * it, in the same database transaction (a batch of account-days per transaction). Runs twice or
 * from two processes at once charge once: the second waits on the records' row locks, then finds
 * none open.
 *
 * The schedule bills closed days only (before today, UTC), so each day is one transaction. An
 * operator's run (`jobs run billing`) also bills today so far; calls made later that day are then
 * billed by a further transaction for the day (docs/decisions.md).
 */
export async function billUsage(db: Db, options: { now?: Date; includeToday: boolean }): Promise<UsageBillingRun> {
  const now = options.now ?? new Date();
  const through = utcDay(options.includeToday ? now : new Date(now.getTime() - 86_400_000));
  const run: UsageBillingRun = { transactions: 0, records: 0, errors: [] };
  const days = await openUsageDays(db, through);
  for (let start = 0; start < days.length; start += BATCH) {
    const batch = days.slice(start, start + BATCH);
    try {
      const billed = await db.transaction().execute(async (trx) => {
        const closed = await billUsageDays(trx, batch);
        await refreshBillingStatus(trx, [...new Set(closed.map((day) => day.accountId))]);
        return closed;
      });
      run.records += billed.reduce((n, day) => n + day.records, 0);
      run.transactions += billed.filter((day) => day.transactionId !== null).length;
    } catch (error) {
      const first = batch[0];
      run.errors.push(
        `${batch.length} account-days from ${first?.accountId} ${first?.date}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return run;
}

/** The `billing` job: usage to the ledger, then the suspension sweep over every account. */
export async function runBilling(db: Db, options: { includeToday: boolean; flush?: () => Promise<void> }) {
  await options.flush?.();
  const usage = await billUsage(db, { includeToday: options.includeToday });
  const changed = await refreshBillingStatus(db);
  return { ...usage, changed };
}
