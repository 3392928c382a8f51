// What the console API benchmark measures: each call of the pages (support/console-calls.ts) with
// its target (p99, ms) and the check of its answer against what was seeded.
import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/database.ts';
import {
  accountDetails,
  type ConsoleClient,
  chartRecords,
  lastDays,
  lastPage,
  monthlyApiCalls,
  monthlyBill,
  monthToDate,
  transactionPage,
  usagePage,
} from './console-calls.ts';
import { type MeasuredAccount, RECENT_PER_DAY } from './console-seed.ts';

const CHART_DAYS = 180;

/** What the database itself says an account holds, summed from the rows (not from any kept total). */
export interface Reference {
  balance: number;
  amountPending: number;
}

export async function referenceOf(db: Db, accountId: string): Promise<Reference> {
  const { rows } = await sql<{ balance: string; pending: string }>`select
    (select coalesce(sum(amount), 0) from account_transactions where account_id = ${accountId} and status = 'COMPLETED')::text as balance,
    (select coalesce(sum(usage * unit_price), 0) from account_resource_usage
      where account_id = ${accountId} and status = 'PENDING')::text as pending`.execute(db);
  return { balance: Number(rows[0]?.balance), amountPending: Number(rows[0]?.pending) };
}

const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;

export interface MeasuredCall {
  name: string;
  /** p99 target in ms. */
  target: number;
  call(api: ConsoleClient, account: MeasuredAccount, reference: Reference): () => Promise<unknown>;
}

export function measuredCalls(resources: { billing: string[]; usage: string[] }): MeasuredCall[] {
  const chart = (name: string, names: string[]): MeasuredCall => ({
    name,
    target: 100,
    call: (api, account) => async () => {
      const records = await chartRecords(api, account.id, lastDays(CHART_DAYS), names);
      if (records.length !== CHART_DAYS * RECENT_PER_DAY) throw new Error(`${name}: ${records.length} records`);
    },
  });
  const days = Number(monthToDate().dateEnd.slice(8));
  return [
    {
      name: 'transactions, first page',
      target: 20,
      call: (api, a) => () => transactionPage(api, a.id, 1, a.listedTransactions),
    },
    {
      name: 'transactions, page 100',
      target: 20,
      call: (api, a) => () => transactionPage(api, a.id, 100, a.listedTransactions),
    },
    {
      name: 'transactions, last page',
      target: 200,
      call: (api, a) => () => transactionPage(api, a.id, lastPage(a.listedTransactions), a.listedTransactions),
    },
    { name: 'usage, first page', target: 20, call: (api, a) => () => usagePage(api, a.id, 1, a.usageRecords) },
    { name: 'usage, page 100', target: 20, call: (api, a) => () => usagePage(api, a.id, 100, a.usageRecords) },
    {
      name: 'usage, last page',
      target: 200,
      call: (api, a) => () => usagePage(api, a.id, lastPage(a.usageRecords), a.usageRecords),
    },
    chart(`chart Account Billing, ${CHART_DAYS} days`, resources.billing),
    chart(`chart Service Usage, ${CHART_DAYS} days`, resources.usage),
    {
      name: 'card Available Credits',
      target: 20,
      call: (api, a, reference) => async () => {
        const details = await accountDetails(api, a.id);
        if (!near(details.balance, reference.balance) || !near(details.amountPending, reference.amountPending)) {
          throw new Error(
            `details: balance ${details.balance}, pending ${details.amountPending}, seeded ${JSON.stringify(reference)}`,
          );
        }
      },
    },
    {
      name: 'card Monthly Bill',
      target: 20,
      call: (api, a) => async () => {
        const withdrawals = await monthlyBill(api, a.id, monthToDate());
        if (withdrawals.length > days)
          throw new Error(`monthly bill: ${withdrawals.length} withdrawals in ${days} days`);
      },
    },
    {
      name: 'card Monthly API Calls',
      target: 20,
      call: (api, a) => async () => {
        const records = await monthlyApiCalls(api, a.id, monthToDate());
        if (records.length !== days * RECENT_PER_DAY) throw new Error(`monthly calls: ${records.length} records`);
      },
    },
  ];
}
