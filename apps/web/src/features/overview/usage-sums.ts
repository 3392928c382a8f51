import type { ResourceUsageRecord, Transaction } from '@ebs/contract';
import { sumExact, sumFixed } from '../../lib/decimal';

/** What a chart plots per day: the requests made, or their price in USD. */
export type Measure = 'usage' | 'price';

export interface ResourceSeries {
  resourceName: string;
  /** One value per day of the range, in order; 0 on a day without usage. */
  values: number[];
}

/**
 * One series per resource (in the given order) with one value per day: the records of a day and
 * resource (one per API key) are added up, exactly for prices. Records of other resources or days
 * are left out.
 */
export function dailySeries(
  records: readonly ResourceUsageRecord[],
  resources: readonly string[],
  days: readonly string[],
  measure: Measure,
): ResourceSeries[] {
  const dayIndex = new Map(days.map((day, index) => [day, index]));
  const cells = new Map(resources.map((name) => [name, days.map((): number[] => [])]));
  for (const record of records) {
    const index = dayIndex.get(record.date);
    if (index !== undefined) cells.get(record.resourceName)?.[index]?.push(record[measure]);
  }
  return resources.map((resourceName) => ({
    resourceName,
    values: (cells.get(resourceName) ?? []).map((amounts) =>
      measure === 'price' ? sumExact(amounts) : amounts.reduce((total, n) => total + n, 0),
    ),
  }));
}

export const WITHDRAW_TYPE = 'WITHDRAW_RESOURCE_USAGE';

/** spec A §9: Monthly Bill is the sum of the absolute amounts of the month's usage withdrawals, 2 decimals. */
export const monthlyBill = (transactions: readonly Transaction[]): string =>
  sumFixed(
    transactions.filter((t) => t.type === WITHDRAW_TYPE).map((t) => Math.abs(t.amount)),
    2,
  );
