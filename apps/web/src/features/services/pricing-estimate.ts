import { isForwardingResource, type ResourceUsageRecord, type RpcPricing } from '@ebs/contract';
import { decimalUnits, unitsFixed } from '../../lib/decimal';
import type { UsageDays } from '../../lib/usage-month';

/**
 * Money is summed as a whole number of 10^-10 USD: a network's price per million CU has at most 4
 * decimals, so one compute unit's price has at most 10, and every sum is exact.
 */
const SCALE = 10;
/** A price per million CU read at this scale, times a count of CU, is a cost at SCALE. */
const PER_MILLION_SCALE = SCALE - 6;

const DAY_MS = 86_400_000;

/** The last `days` days up to today, both inclusive, as the usage list dates its records (UTC). */
export function lastDaysUtc(days: number, now: Date = new Date()): UsageDays {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { dateStart: day(now.getTime() - (days - 1) * DAY_MS), dateEnd: day(now.getTime()) };
}

export interface CostEstimate {
  /** RPC calls (each call of a batch, and each notification delivered). */
  calls: number;
  computeUnits: number;
  forwards: number;
  /** USD in 10^-10 units. */
  total: bigint;
  /** Records left out of the total: their resource has no price today, or RPC usage without its compute units. */
  unpriced: number;
}

/**
 * What `records` would cost at `pricing`'s prices: each RPC record its compute units × its
 * network's USD per million CU ÷ 1 000 000, each token forward record its usage × the forwarding fee.
 */
export function estimateCost(records: readonly ResourceUsageRecord[], pricing: RpcPricing): CostEstimate {
  const perMillion = new Map(
    pricing.networks.map((n) => [n.resourceName, decimalUnits(n.usdPerMillionCu, PER_MILLION_SCALE)] as const),
  );
  const fee = decimalUnits(pricing.forwardingFeeUsd, SCALE);
  const estimate: CostEstimate = { calls: 0, computeUnits: 0, forwards: 0, total: 0n, unpriced: 0 };
  for (const { resourceName, usage, computeUnits } of records) {
    if (isForwardingResource(resourceName)) {
      estimate.forwards += usage;
      if (fee === undefined) estimate.unpriced += 1;
      else estimate.total += BigInt(usage) * fee;
      continue;
    }
    estimate.calls += usage;
    estimate.computeUnits += computeUnits ?? 0;
    const price = perMillion.get(resourceName);
    if (price === undefined || computeUnits === null) estimate.unpriced += 1;
    else estimate.total += BigInt(computeUnits) * price;
  }
  return estimate;
}

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The estimate to the cent, rounded half up: "$1,234.57". */
export function centsText(total: bigint): string {
  const [whole = '0', cents = '00'] = unitsFixed(total, SCALE, 2).split('.');
  return `$${groupThousands(whole)}.${cents}`;
}

/**
 * The estimate exactly, to compare with the usage table's prices: at least 6 decimals, more when it
 * has them ("0.010040", "24.79154105").
 */
export const exactText = (total: bigint) => unitsFixed(total, SCALE, SCALE).replace(/(\.\d{6}\d*?)0+$/, '$1');
