// The console's calls as the web app makes them (apps/web/src/features/{billing,overview,accounts}
// and session/account-details.ts), each with the check that its answer is what the page needs.
import {
  type AccountDetails,
  type AccountList,
  isChartedUsageResource,
  type ResourceUsageList,
  type TransactionList,
  type UsageResource,
} from '@ebs/contract';

/** spec A §9: history tables show 10 rows a page, charts page by 100, the monthly cards by 1000. */
const TABLE_PAGE = 10;
const CHART_PAGE = 100;
const MONTHLY_PAGE = 1000;
/** A browser opens at most 6 connections to one origin (HTTP/1.1): a chart's pages queue behind them. */
const BROWSER_CONNECTIONS = 6;
const WITHDRAW_TYPE = 'WITHDRAW_RESOURCE_USAGE';

export class ConsoleClient {
  constructor(
    private readonly baseUrl: string,
    private readonly idToken: string,
  ) {}

  /** One GET as apps/web/src/api/http.ts sends it; the wrapper's data, or an error naming the call. */
  async get<T>(path: string, accountId: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
    const url = `${this.baseUrl}${path}${params.size ? `?${params}` : ''}`;
    const answer = await fetch(url, {
      headers: { accept: 'application/json', authorization: `Bearer ${this.idToken}`, 'ebs-account-id': accountId },
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`GET ${url} answered HTTP ${answer.status}: ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: T }).data;
  }
}

export interface UtcDays {
  dateStart: string;
  dateEnd: string;
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** The last `days` days up to today, both included (overview-dates.ts `lastDays`), in UTC like the seed. */
export function lastDays(days: number, now = new Date()): UtcDays {
  return { dateStart: utcDay(new Date(now.getTime() - (days - 1) * 86_400_000)), dateEnd: utcDay(now) };
}

/** The first of this month to today (overview-dates.ts `monthToDate`). */
export function monthToDate(now = new Date()): UtcDays {
  return { dateStart: `${utcDay(now).slice(0, 8)}01`, dateEnd: utcDay(now) };
}

interface Page<T> {
  items: T[];
  totalCount: number;
}

/**
 * usage-sums.ts `fetchAllPages`: the first page tells the count, the rest are asked for together
 * (here through at most BROWSER_CONNECTIONS at a time, as a browser sends them).
 */
async function allPages<T>(pageSize: number, fetchPage: (offset: number) => Promise<Page<T>>): Promise<T[]> {
  const first = await fetchPage(0);
  const offsets: number[] = [];
  for (let offset = pageSize; offset < first.totalCount; offset += pageSize) offsets.push(offset);
  const pages: Page<T>[] = [];
  let next = 0;
  const worker = async () => {
    while (next < offsets.length) {
      const index = next++;
      pages[index] = await fetchPage(offsets[index] as number);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BROWSER_CONNECTIONS, offsets.length) }, worker));
  const items = [first, ...pages].flatMap((page) => page.items);
  if (items.length !== first.totalCount) throw new Error(`paged ${items.length} records of ${first.totalCount}`);
  return items;
}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`wrong answer: ${what}`);
}

/** billing-queries.ts `useTransactions`: one page of the Transaction History table. */
export async function transactionPage(api: ConsoleClient, accountId: string, page: number, total: number) {
  const offset = (page - 1) * TABLE_PAGE;
  const list = await api.get<TransactionList>('/api/v1.0/transaction', accountId, { limit: TABLE_PAGE, offset });
  expect(list.totalCount === total, `transaction totalCount ${list.totalCount}, ${total} seeded`);
  expect(
    list.transactions.length === Math.min(TABLE_PAGE, total - offset),
    `${list.transactions.length} rows on page ${page}`,
  );
  return list;
}

/** usage-queries.ts `useUsage`: one page of the Service Usage History table, newest first. */
export async function usagePage(api: ConsoleClient, accountId: string, page: number, total: number) {
  const offset = (page - 1) * TABLE_PAGE;
  const list = await api.get<ResourceUsageList>('/api/v1.0/usage/api/billing', accountId, {
    accountId,
    limit: TABLE_PAGE,
    offset,
    order: 'desc',
  });
  expect(list.totalCount === total, `usage totalCount ${list.totalCount}, ${total} seeded`);
  expect(
    list.accountResourceUsage.length === Math.min(TABLE_PAGE, total - offset),
    `${list.accountResourceUsage.length} usage rows on page ${page}`,
  );
  return list;
}

export const lastPage = (total: number) => Math.max(1, Math.ceil(total / TABLE_PAGE));

/** usage-queries.ts `useUsageResourceNames`: the resources the billing chart shows; the usage chart leaves out forwarding. */
export async function chartResources(api: ConsoleClient, accountId: string) {
  const all = (await api.get<UsageResource[]>('/api/v1.0/usage/api/billing/resource', accountId)).map(
    (r) => r.resourceName,
  );
  return { billing: all, usage: all.filter(isChartedUsageResource) };
}

/** overview-queries.ts `useUsageRecords`: every record of a chart's range, in pages of 100, ascending. */
export async function chartRecords(api: ConsoleClient, accountId: string, range: UtcDays, resources: string[]) {
  const records = await allPages(CHART_PAGE, (offset) =>
    api
      .get<ResourceUsageList>('/api/v1.0/usage/api/billing', accountId, {
        accountId,
        ...range,
        resourceNameIn: JSON.stringify(resources),
        limit: CHART_PAGE,
        offset,
        order: 'asc',
      })
      .then((list) => ({ items: list.accountResourceUsage, totalCount: list.totalCount })),
  );
  for (let i = 1; i < records.length; i++) {
    expect((records[i - 1]?.date ?? '') <= (records[i]?.date ?? ''), 'chart records out of date order');
  }
  return records;
}

/** account-details.ts: the Available Credits card (balance − amountPending). */
export const accountDetails = (api: ConsoleClient, accountId: string) =>
  api.get<AccountDetails>('/api/v1.0/account/details', accountId);

/** overview-queries.ts `useMonthlyBill`: the month's usage withdrawals, by 1000. */
export const monthlyBill = (api: ConsoleClient, accountId: string, month: UtcDays) =>
  allPages(MONTHLY_PAGE, (offset) =>
    api
      .get<TransactionList>('/api/v1.0/transaction', accountId, {
        limit: MONTHLY_PAGE,
        offset,
        ...month,
        typeIn: JSON.stringify([WITHDRAW_TYPE]),
      })
      .then((list) => ({ items: list.transactions, totalCount: list.totalCount })),
  );

/** overview-queries.ts `useMonthlyApiCalls`: the month's usage records, by 1000, newest first. */
export const monthlyApiCalls = (api: ConsoleClient, accountId: string, month: UtcDays) =>
  allPages(MONTHLY_PAGE, (offset) =>
    api
      .get<ResourceUsageList>('/api/v1.0/usage/api/billing', accountId, {
        accountId,
        ...month,
        limit: MONTHLY_PAGE,
        offset,
        order: 'desc',
      })
      .then((list) => ({ items: list.accountResourceUsage, totalCount: list.totalCount })),
  );

/** account-queries.ts `useAccountList`: the first 100 of the user's accounts, ebs-account-id sent empty. */
export const accountList = (api: ConsoleClient) =>
  api.get<AccountList>('/api/v1.0/account', '', { limit: 100, offset: 0 });
