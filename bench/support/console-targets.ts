// What the console API benchmark measures: each call of the pages (support/console-calls.ts) with
// its target (p99, ms) and the check of its answer against what was seeded.

import { type MethodSeries, type MethodStatList, REQUEST_LOG_COUNT_LIMIT, type RequestLogList } from '@ebs/contract';
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
import { FAILED_EVERY, INSIGHT_METHODS, INSIGHT_PAIRS, LOGGED_PER_TRANSACTION } from './insight-seed.ts';

const CHART_DAYS = 180;

/** What the database itself says an account holds, summed from the rows (not from any kept total). */
export interface Reference {
  balance: number;
  amountPending: number;
}

export async function referenceOf(db: Db, accountId: string): Promise<Reference> {
  const { rows } = await sql<{ balance: string; pending: string }>`select
    (select coalesce(sum(amount), 0) from account_transactions where account_id = ${accountId} and status = 'COMPLETED')::text as balance,
    (select coalesce(sum(coalesce(compute_units, usage) * unit_price), 0) from account_resource_usage
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
    ...insightCalls(),
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

/** The Analytics page's and the request log's calls, on the seeded insight (support/insight-seed.ts). */
function insightCalls(): MeasuredCall[] {
  const methods = (days: number): MeasuredCall => ({
    name: `analytics, methods, ${days} days`,
    target: 50,
    call: (api, a) => async () => {
      const { methods } = await api.get<MethodStatList>('/api/v1.0/usage/api/methods', a.id, { ...lastDays(days) });
      if (methods.length !== INSIGHT_PAIRS) throw new Error(`methods, ${days} days: ${methods.length} rows`);
    },
  });
  const log = (name: string, query: Record<string, string | number>, expected: (a: MeasuredAccount) => number) => ({
    name,
    target: 50,
    call: (api: ConsoleClient, a: MeasuredAccount) => async () => {
      const page = await api.get<RequestLogList>('/api/v1.0/usage/api/requests', a.id, { limit: 10, ...query });
      const total = Math.min(expected(a), REQUEST_LOG_COUNT_LIMIT);
      if (page.totalCount !== total || page.requests.length !== 10) {
        throw new Error(`${name}: ${page.requests.length} rows of ${page.totalCount}, seeded ${total}`);
      }
    },
  });
  const logged = (a: MeasuredAccount) => a.transactions * LOGGED_PER_TRANSACTION;
  return [
    methods(7),
    methods(90),
    {
      name: 'analytics, charts, 30 days',
      target: 50,
      call: (api, a) => async () => {
        const series = await api.get<MethodSeries>('/api/v1.0/usage/api/methods/series', a.id, { ...lastDays(30) });
        if (series.points.length < INSIGHT_METHODS.length * 23)
          throw new Error(`charts: ${series.points.length} points`);
      },
    },
    log('request log, first page', {}, logged),
    log('request log, failed only, page 100', { failedOnly: 'true', offset: 990 }, (a) =>
      Math.ceil(logged(a) / FAILED_EVERY),
    ),
    log('request log, one method', { method: 'eth_call' }, (a) => Math.ceil(logged(a) / INSIGHT_METHODS.length)),
  ];
}
