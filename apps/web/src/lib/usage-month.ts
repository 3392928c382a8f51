import { isForwardingResource, type ResourceUsageRecord } from '@ebs/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { sumExact } from './decimal';
import { formatUsdSum } from './format';

/** A period of whole days, both inclusive, as YYYY-MM-DD: how the usage list takes it. */
export interface UsageDays {
  dateStart: string;
  dateEnd: string;
}

/** spec A §7: the monthly summary covers the first of the current month to today. */
export const monthToDate = (today: Dayjs = dayjs()): UsageDays => ({
  dateStart: today.startOf('month').format('YYYY-MM-DD'),
  dateEnd: today.format('YYYY-MM-DD'),
});

/** A resource's usage over the month: its units and their price in USD (an exact sum). */
export interface ResourceMonth {
  usage: number;
  price: number;
}

/** The month's usage records summed: what the Overview cards and the Billing prices show. */
export interface MonthlyUsage {
  /** spec A §9 Monthly API Calls: the usage of the month's RPC requests; token forwards apart. */
  apiCalls: number;
  /** Token forwards this month (one usage unit per transfer). */
  forwards: number;
  /** USD of the month's usage, posted or not (formatUsdSum). */
  total: string;
  /** USD of the month's usage that the daily billing has not posted to the ledger yet (formatUsdSum). */
  unposted: string;
  byResource: ReadonlyMap<string, ResourceMonth>;
}

export function monthlyUsage(records: readonly ResourceUsageRecord[]): MonthlyUsage {
  const prices = new Map<string, number[]>();
  const units = new Map<string, number>();
  let apiCalls = 0;
  let forwards = 0;
  for (const { resourceName, usage, price } of records) {
    if (isForwardingResource(resourceName)) forwards += usage;
    else apiCalls += usage;
    units.set(resourceName, (units.get(resourceName) ?? 0) + usage);
    const list = prices.get(resourceName);
    if (list) list.push(price);
    else prices.set(resourceName, [price]);
  }
  const byResource = new Map(
    [...units].map(([name, usage]) => [name, { usage, price: sumExact(prices.get(name) ?? []) }] as const),
  );
  const total = formatUsdSum(records.map((record) => record.price));
  const unposted = formatUsdSum(records.filter((record) => record.status === 'PENDING').map((record) => record.price));
  return { apiCalls, forwards, total, unposted, byResource };
}
