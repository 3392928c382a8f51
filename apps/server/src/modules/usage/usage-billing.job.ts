import type { Db } from '../../db/database.ts';
import { insertTransaction, refreshBillingStatus } from '../billing/ledger.store.ts';
import { closeUsageDay, linkUsageToTransaction, openUsageDays } from './usage.store.ts';

export interface UsageBillingRun {
  /** WITHDRAW_RESOURCE_USAGE transactions posted. */
  transactions: number;
  /** Usage records closed. */
  records: number;
  errors: string[];
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Posts metered usage to the ledger: for each account and day with open usage, one
 * WITHDRAW_RESOURCE_USAGE transaction of usage × unit price, and the records marked BILLED with
 * it, in one database transaction. Runs twice or from two processes at once charge once: the
 * second waits on the records' row locks, then finds none open.
 *
 * The schedule bills closed days only (before today, UTC), so each day is one transaction. An
 * operator's run (`jobs run billing`) also bills today so far; calls made later that day are then
 * billed by a further transaction for the day (docs/decisions.md).
 */
export async function billUsage(db: Db, options: { now?: Date; includeToday: boolean }): Promise<UsageBillingRun> {
  const now = options.now ?? new Date();
  const through = utcDay(options.includeToday ? now : new Date(now.getTime() - 86_400_000));
  const run: UsageBillingRun = { transactions: 0, records: 0, errors: [] };
  for (const { accountId, date } of await openUsageDays(db, through)) {
    try {
      const posted = await db.transaction().execute(async (trx) => {
        const day = await closeUsageDay(trx, accountId, date);
        if (day.ids.length === 0) return { records: 0, transactions: 0 };
        if (Number(day.amount) > 0) {
          const transactionId = await insertTransaction(trx, {
            accountId,
            type: 'WITHDRAW_RESOURCE_USAGE',
            amount: `-${day.amount}`,
            status: 'COMPLETED',
            metadata: { date, usage: Number(day.usage), records: day.ids.length },
          });
          await linkUsageToTransaction(trx, day.ids, transactionId);
          return { records: day.ids.length, transactions: 1 };
        }
        return { records: day.ids.length, transactions: 0 };
      });
      run.records += posted.records;
      run.transactions += posted.transactions;
    } catch (error) {
      run.errors.push(`${accountId} ${date}: ${error instanceof Error ? error.message : String(error)}`);
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
