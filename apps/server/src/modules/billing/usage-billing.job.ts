import type { Db } from '../../db/database.ts';
import { refreshBillingStatus } from '../accounts/index.ts';
import { appendTransactions } from '../ledger/index.ts';
import { closeUsageRecords, lockOpenUsage, openUsageDays, type UsageDay, utcDay } from '../usage/index.ts';

export interface UsageBillingRun {
  /** WITHDRAW_RESOURCE_USAGE transactions posted. */
  transactions: number;
  /** Usage records closed. */
  records: number;
  errors: string[];
}

/**
 * Account-days billed per database transaction. One day at a time cost a transaction (and its
 * commit's disk flush) per account: 10 000 accounts took minutes. A batch is a handful of
 * statements whatever its size, and small enough that a failure retries little (docs/performance.md).
 */
const BATCH = 500;

/**
 * Posts metered usage to the ledger: for each account and day with open usage, one
 * WITHDRAW_RESOURCE_USAGE transaction of its records' prices (compute units × the price of one, a
 * token forward's fee per forward), summed exactly and rounded once to the ledger's 6 decimals
 * (lockOpenUsage), and the records marked BILLED with it, in the same database transaction (a
 * batch of account-days per transaction). Runs twice or from two processes at once charge once:
 * the second waits on the records' row locks, then finds none open.
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
      const billed = await db.transaction().execute((trx) => billUsageDays(trx, batch));
      run.records += billed.records;
      run.transactions += billed.transactions;
    } catch (error) {
      const first = batch[0];
      run.errors.push(
        `${batch.length} account-days from ${first?.accountId} ${first?.date}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return run;
}

/**
 * Bills a batch of account-days in the caller's transaction: locks and totals their open records,
 * posts one WITHDRAW_RESOURCE_USAGE row per account-day whose total is above 0 (none when it rounds
 * to 0), closes the records with it, then refreshes the accounts' billing status.
 */
async function billUsageDays(trx: Db, days: UsageDay[]) {
  const totals = await lockOpenUsage(trx, days);
  const charged = totals.filter((day) => Number(day.amount) > 0);
  const ids = await appendTransactions(
    trx,
    charged.map((day) => ({
      accountId: day.accountId,
      type: 'WITHDRAW_RESOURCE_USAGE',
      amount: `-${day.amount}`,
      status: 'COMPLETED',
      metadata: { date: day.date, usage: day.usage, records: day.recordIds.length },
    })),
  );
  const transactionOf = new Map(charged.map((day, i) => [day, ids[i] ?? null]));
  await closeUsageRecords(
    trx,
    totals.map((day) => ({ recordIds: day.recordIds, transactionId: transactionOf.get(day) ?? null })),
  );
  await refreshBillingStatus(trx, [...new Set(totals.map((day) => day.accountId))]);
  return { transactions: ids.length, records: totals.reduce((n, day) => n + day.recordIds.length, 0) };
}

/** The `billing` job: usage to the ledger, then the suspension sweep over every account. */
export async function runBilling(db: Db, options: { includeToday: boolean; flush?: () => Promise<void> }) {
  await options.flush?.();
  const usage = await billUsage(db, { includeToday: options.includeToday });
  const changed = await refreshBillingStatus(db);
  return { ...usage, changed };
}
